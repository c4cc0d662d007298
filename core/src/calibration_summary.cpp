// A calibration profile's summary JSON for the lab's badge and checks (the figures it replaces: calibrated_figures.hpp).
#include "tslab/calibration_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/calibration_warnings.hpp"

namespace tslab {

namespace {

json link_json(const char* id, const std::optional<fitted_link>& l) {
    if (!l) return nullptr;
    const collective_fit& c = *l->from;
    return json{{"id", id},
                {"path", fmt::format("cluster.{}", id)},
                {"in_report", true},
                {"bandwidth_Bps", l->bandwidth_Bps},
                {"latency_s", l->latency_s},
                {"from", fmt::format("{} ×{} {}", describe(c.op).name, c.ranks, to_string(c.scope))}};
}

json replaces_json(const calibration_profile& p) {
    const calibrated_figures f = figures_from_profile(p);
    json out = json::array();
    for (json j : {link_json("intra_node", f.intra_node), link_json("inter_node", f.inter_node)})
        if (!j.is_null()) out.push_back(std::move(j));
    if (f.hbm_bandwidth_Bps)
        out.push_back({{"id", "hbm"},
                       {"path", "cluster.gpu.hbm_bandwidth_Bps"},
                       {"in_report", true},
                       {"bandwidth_Bps", *f.hbm_bandwidth_Bps},
                       {"from", "memory.device_copy_Bps × 2"}});
    if (f.host_bandwidth_Bps)
        out.push_back({{"id", "host"},
                       {"path", "cluster.host.bandwidth_Bps"},
                       {"in_report", true},
                       {"bandwidth_Bps", *f.host_bandwidth_Bps},
                       {"from", "min(memory.host_to_device_Bps, memory.device_to_host_Bps)"}});
    // The GEMM curve feeds the compute model (step ledger L3), which the report does not carry yet.
    for (const auto& dt : f.gemm_dtypes) {
        const gemm_curve& c = *p.gemm.curve(dt);
        out.push_back({{"id", "gemm"},
                       {"path", "cluster.gpu.gemm_efficiency"},
                       {"in_report", true},
                       {"dtype", dt},
                       {"flops_per_s_max", c.flops_per_s_max},
                       {"x_half_flops", c.x_half_flops},
                       {"from", fmt::format("gemm.curves ({})", dt)}});
    }
    return out;
}

}  // namespace

json calibration_summary_to_json(const calibration_profile& p, const cluster_spec* cluster, std::int64_t world) {
    json devices = json::array();
    for (const auto& d : p.devices) devices.push_back({{"name", d.name}, {"count", d.count}});
    std::size_t collective_samples = 0;
    for (const auto& c : p.collectives) collective_samples += c.samples.size();
    return json{{"schema", "tslab/calibration-summary@1"},
                {"source", p.source()},
                {"backend", p.backend},
                {"host", p.host},
                {"created", p.created},
                {"ranks", p.ranks},
                {"nodes", p.nodes},
                {"complete", p.complete},
                {"devices", std::move(devices)},
                {"probes",
                 {{"collective_fits", p.collectives.size()},
                  {"collective_samples", collective_samples},
                  {"gemm_samples", p.gemm.samples.size()},
                  {"memory_samples", p.memory.samples.size()}}},
                {"replaces", replaces_json(p)},
                {"origin", p.provenance.origin},
                {"cluster_name", p.provenance.cluster_name},
                {"job_id", p.provenance.job_id},
                {"warnings", calibration_warnings(p, cluster, world)},
                {"warnings_msg", messages_json(calibration_warning_messages(p, cluster, world))}};
}

std::string calibration_summary_json_text(const std::string& profile_text) {
    return calibration_summary_to_json(parse_calibration_text(profile_text, "")).dump(2);
}

std::string calibration_summary_json_text(const std::string& profile_text, const std::string& scenario_text) {
    const calibration_profile p = parse_calibration_text(profile_text, "");
    if (scenario_text.empty()) return calibration_summary_to_json(p).dump(2);
    const scenario s = parse_scenario_text(scenario_text);
    return calibration_summary_to_json(p, &s.cluster, s.parallel.world()).dump(2);
}

}  // namespace tslab
