// The provenance block of a tslab/calibration@1 profile: who measured it, where, on what, how it stopped.
#include "calibration_detail.hpp"

namespace tslab {

bool provenance_info::empty() const {
    return cluster_name.empty() && job_id.empty() && launcher.empty() && node_list_hash.empty() && stop_reason.empty() && hosts.empty() &&
        gpu_uuids.empty() && inputs.empty() && nccl_env.empty() && clocks.empty() && origin == "live";
}

namespace detail {

namespace {

std::vector<std::string> strings(field_reader& r, const char* key) {
    std::vector<std::string> out;
    const json* v = r.raw(key);
    if (!v) return out;
    if (!v->is_array()) throw input_error(r.path_of(key), msg("calibration.expected_string_array"));
    for (std::size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string()) throw input_error(at(r.path_of(key), i), msg("calibration.expected_string"));
        out.push_back((*v)[i].get<std::string>());
    }
    return out;
}

gpu_clock_info parse_clock(const json& obj, const std::string& path) {
    field_reader r(obj, path);
    gpu_clock_info c;
    c.rank = r.integer("rank", 0, 0, 1 << 24);
    c.uuid = r.text("uuid", "");
    c.sm_clock_mhz = r.number("sm_clock_mhz", 0, 0, 1e5);
    c.max_sm_clock_mhz = r.number("max_sm_clock_mhz", 0, 0, 1e5);
    c.power_limit_w = r.number("power_limit_w", 0, 0, 1e5);
    r.finish();
    return c;
}

}  // namespace

provenance_info parse_provenance(const json& obj, const std::string& path) {
    field_reader r(obj, path);
    provenance_info p;
    p.origin = r.choice("origin", "live", {"live", "nccl-tests import"});
    p.cluster_name = r.text("cluster_name", "");
    p.job_id = r.text("job_id", "");
    p.launcher = r.text("launcher", "");
    p.node_list_hash = r.text("node_list_hash", "");
    p.stop_reason = r.text("stop_reason", "");
    p.hosts = strings(r, "hosts");
    p.gpu_uuids = strings(r, "gpu_uuids");
    p.inputs = strings(r, "inputs");
    if (const json* env = r.object("nccl_env"))
        for (auto it = env->begin(); it != env->end(); ++it) {
            if (!it.value().is_string()) throw input_error(r.path_of("nccl_env") + "." + it.key(), msg("calibration.expected_string"));
            p.nccl_env.emplace_back(it.key(), it.value().get<std::string>());
        }
    if (const json* clocks = r.raw("clocks")) {
        if (!clocks->is_array()) throw input_error(r.path_of("clocks"), msg("calibration.expected_array"));
        for (std::size_t i = 0; i < clocks->size(); ++i) p.clocks.push_back(parse_clock((*clocks)[i], at(r.path_of("clocks"), i)));
    }
    r.finish();
    return p;
}

json provenance_json(const provenance_info& p) {
    json env = json::object(), clocks = json::array();
    for (const auto& [k, v] : p.nccl_env) env[k] = v;
    for (const auto& c : p.clocks)
        clocks.push_back({{"rank", c.rank},
                          {"uuid", c.uuid},
                          {"sm_clock_mhz", c.sm_clock_mhz},
                          {"max_sm_clock_mhz", c.max_sm_clock_mhz},
                          {"power_limit_w", c.power_limit_w}});
    return json{{"origin", p.origin},       {"cluster_name", p.cluster_name},     {"job_id", p.job_id},
                {"launcher", p.launcher},   {"node_list_hash", p.node_list_hash}, {"hosts", p.hosts},
                {"gpu_uuids", p.gpu_uuids}, {"nccl_env", std::move(env)},         {"clocks", std::move(clocks)},
                {"inputs", p.inputs},       {"stop_reason", p.stop_reason}};
}

}  // namespace detail
}  // namespace tslab
