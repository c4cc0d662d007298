// Predicted-versus-measured rows for a calibration profile, by its own fits or by a scenario's cluster.
#include "tslab/calibration_check.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tslab/calibration_warnings.hpp"
#include "tslab/robust_fit.hpp"

namespace tslab {

namespace {

dtype dtype_named(const std::string& s) {
    if (s == "fp8") return dtype::fp8;
    if (s == "fp16") return dtype::fp16;
    if (s == "fp32" || s == "tf32") return dtype::fp32;
    return dtype::bf16;
}

double predict_collective(const collective_fit& c, double bytes, const cluster_spec* cl) {
    if (!cl) return c.time_s(bytes);
    const link_spec& l = c.scope == link_scope::inter ? cl->inter_node : cl->intra_node;
    const double factor = describe(c.op).busbw_factor(static_cast<double>(c.ranks));
    return l.latency_s + bytes * factor / l.bandwidth_Bps;
}

double predict_gemm(const gemm_section& g, const gemm_sample& s, const cluster_spec* cl) {
    const gemm_section* src = cl ? (cl->profile ? &cl->profile->gemm : nullptr) : &g;
    if (src)
        if (const gemm_curve* c = src->curve(s.dtype); c && c->flops_per_s_max > 0) return c->time_s(s.flops());
    if (!cl) return 0;
    return s.flops() / cl->gpu.peak_flops(dtype_named(s.dtype));
}

// The memory figure that predicts one sample; 0 when there is none.
double predict_memory(const calibration_profile& p, const memory_sample& s, const cluster_spec* cl) {
    const double b = static_cast<double>(s.bytes);
    auto by = [b](double bps) { return bps > 0 ? b / bps : 0.0; };
    if (cl) {
        if (s.probe == "d2d") return by(cl->gpu.hbm_bandwidth_Bps / 2);
        if (s.probe == "h2d" || s.probe == "d2h") return by(cl->host.bandwidth_Bps);
        if (s.probe == "launch" && cl->profile) return cl->profile->memory.launch_latency_s;
        return 0;
    }
    const auto& m = p.memory;
    if (s.probe == "d2d") return by(m.device_copy_Bps);
    if (s.probe == "h2d") return by(m.host_to_device_Bps);
    if (s.probe == "d2h") return by(m.device_to_host_Bps);
    if (s.probe == "memcpy") return by(m.host_memcpy_Bps);
    return m.launch_latency_s;
}

void add(check_report& r, const char* kind, std::string probe, double size, double measured, double predicted) {
    if (predicted <= 0 || measured <= 0) return;
    r.rows.push_back({kind, std::move(probe), size, measured, predicted, (predicted - measured) / measured});
}

}  // namespace

check_report check_profile(const calibration_profile& p, const cluster_spec* cl, std::int64_t world) {
    check_report r;
    r.warnings_msg = calibration_warning_messages(p, cl, world);
    for (const auto& m : r.warnings_msg) r.warnings.push_back(english(m));
    r.predicted_by = cl ? cl->source : "profile fits";
    for (const auto& c : p.collectives)
        for (const auto& s : c.samples)
            add(r, "collective", fmt::format("{} ×{} {}", describe(c.op).name, c.ranks, to_string(c.scope)), static_cast<double>(s.bytes), s.time_s,
                predict_collective(c, static_cast<double>(s.bytes), cl));
    for (const auto& s : p.gemm.samples)
        add(r, "gemm", fmt::format("gemm {} {}×{}×{}", s.dtype, s.m, s.n, s.k), s.flops(), s.time_s, predict_gemm(p.gemm, s, cl));
    for (const auto& s : p.memory.samples) add(r, "memory", "memory " + s.probe, static_cast<double>(s.bytes), s.time_s, predict_memory(p, s, cl));
    std::vector<double> abs_err;
    for (const auto& row : r.rows) {
        abs_err.push_back(std::abs(row.error_rel));
        r.max_abs_error = std::max(r.max_abs_error, abs_err.back());
    }
    r.median_abs_error = median(abs_err);
    return r;
}

json check_to_json(const check_report& c) {
    json rows = json::array();
    for (const auto& r : c.rows)
        rows.push_back({{"kind", r.kind},
                        {"probe", r.probe},
                        {"size", r.size},
                        {"measured_s", r.measured_s},
                        {"predicted_s", r.predicted_s},
                        {"error_rel", r.error_rel}});
    return json{{"schema", "tslab/validation@1"},
                {"predicted_by", c.predicted_by},
                {"probes", rows.size()},
                {"median_abs_error", c.median_abs_error},
                {"max_abs_error", c.max_abs_error},
                {"rows", std::move(rows)},
                {"warnings", c.warnings},
                {"warnings_msg", messages_json(c.warnings_msg)}};
}

std::string validation_json_text(const std::string& profile_text, const std::string& scenario_text) {
    const calibration_profile p = parse_calibration_text(profile_text, "");
    if (scenario_text.empty()) return check_to_json(check_profile(p, nullptr)).dump(2);
    const scenario s = parse_scenario_text(scenario_text);
    return check_to_json(check_profile(p, &s.cluster, s.parallel.world())).dump(2);
}

std::string check_table(const check_report& c) {
    std::string out = fmt::format("# predicted by: {}\n", c.predicted_by);
    out += fmt::format("# {:<34} {:>14} {:>12} {:>12} {:>9}\n", "probe", "size", "measured", "predicted", "error");
    out += fmt::format("# {:<34} {:>14} {:>12} {:>12} {:>9}\n", "", "(B or FLOP)", "(us)", "(us)", "(%)");
    for (const auto& r : c.rows)
        out += fmt::format("  {:<34} {:>14.6g} {:>12.3f} {:>12.3f} {:>+9.1f}\n", r.probe, r.size, r.measured_s * 1e6, r.predicted_s * 1e6,
                           r.error_rel * 100);
    out +=
        fmt::format("# {} probes, median |error| {:.1f} %, max |error| {:.1f} %\n", c.rows.size(), c.median_abs_error * 100, c.max_abs_error * 100);
    return out;
}

}  // namespace tslab
