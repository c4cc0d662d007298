// The calibration profile: serialisation (fixed key order), fitting from samples, lookups, the source line.
#include "tslab/calibration.hpp"

#include <fmt/format.h>

#include "calibration_detail.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/robust_fit.hpp"

namespace tslab {

const char* to_string(link_scope s) { return s == link_scope::inter ? "inter" : "intra"; }

const gemm_curve* gemm_section::curve(const std::string& dtype) const {
    for (const auto& c : curves)
        if (c.dtype == dtype) return &c;
    return nullptr;
}

const collective_fit* calibration_profile::find(collective_op op, std::int64_t n, link_scope scope) const {
    for (const auto& c : collectives)
        if (c.op == op && c.ranks == n && c.scope == scope) return &c;
    return nullptr;
}

std::string calibration_profile::source() const {
    std::string device = devices.empty() ? backend : devices.front().name;
    const std::string date = utf8_prefix(created, 10);  // never half a UTF-8 character
    return fmt::format("calibrated: {} ×{}, {}{}", device, ranks, date.empty() ? "undated" : date, complete ? "" : ", incomplete");
}

std::optional<fitted_link> link_from_profile(const calibration_profile& p, link_scope scope) {
    const collective_fit* best = nullptr;
    auto better = [&](const collective_fit& c) {
        if (!best) return true;
        const bool ar = c.op == collective_op::allreduce, best_ar = best->op == collective_op::allreduce;
        return ar != best_ar ? ar : c.ranks > best->ranks;
    };
    for (const auto& c : p.collectives)
        if (c.scope == scope && c.ranks > 1 && c.beta_s_per_byte > 0 && !c.samples.empty() && better(c)) best = &c;
    if (!best) return std::nullopt;
    const double factor = describe(best->op).busbw_factor(static_cast<double>(best->ranks));
    return fitted_link{factor / best->beta_s_per_byte, best->alpha_s, best};
}

namespace {

fit_summary summary_of(const line_fit& f) {
    fit_summary s;
    s.rel_residuals = f.rel_residuals;
    s.rms_rel = f.rms_rel;
    s.max_abs_rel = f.max_abs_rel;
    s.outliers = f.outliers;
    return s;
}

json fit_json(const fit_summary& f) {
    return json{
        {"method", f.method}, {"rel_residuals", f.rel_residuals}, {"rms_rel", f.rms_rel}, {"max_abs_rel", f.max_abs_rel}, {"outliers", f.outliers}};
}

json collective_json(const collective_fit& c) {
    json samples = json::array();
    for (const auto& s : c.samples)
        samples.push_back({{"bytes", s.bytes},
                           {"time_s", s.time_s},
                           {"algbw_Bps", s.algbw_Bps},
                           {"busbw_Bps", s.busbw_Bps},
                           {"time_min_s", s.time_min_s},
                           {"time_max_s", s.time_max_s}});
    return json{{"op", describe(c.op).name},
                {"ranks", c.ranks},
                {"scope", to_string(c.scope)},
                {"in_place", c.in_place},
                {"timer", c.timer},
                {"alpha_s", c.alpha_s},
                {"beta_s_per_byte", c.beta_s_per_byte},
                {"fit", fit_json(c.fit)},
                {"samples", std::move(samples)}};
}

json gemm_json(const gemm_section& g) {
    json samples = json::array(), curves = json::array();
    for (const auto& s : g.samples) {
        json j{{"m", s.m}, {"n", s.n}, {"k", s.k}, {"dtype", s.dtype}, {"time_s", s.time_s}, {"flops_per_s", s.flops_per_s}};
        if (s.sm_clock_mhz > 0) j["sm_clock_mhz"] = s.sm_clock_mhz;
        if (s.power_w > 0) j["power_w"] = s.power_w;
        samples.push_back(std::move(j));
    }
    for (const auto& c : g.curves)
        curves.push_back({{"dtype", c.dtype}, {"flops_per_s_max", c.flops_per_s_max}, {"x_half_flops", c.x_half_flops}, {"fit", fit_json(c.fit)}});
    return json{{"form", "flops_per_s(x) = flops_per_s_max * x / (x + x_half_flops), x = 2*m*n*k"},
                {"samples", std::move(samples)},
                {"curves", std::move(curves)}};
}

json memory_json(const memory_figures& m) {
    json samples = json::array();
    for (const auto& s : m.samples) samples.push_back({{"probe", s.probe}, {"bytes", s.bytes}, {"time_s", s.time_s}, {"Bps", s.Bps}});
    return json{{"device_copy_Bps", m.device_copy_Bps}, {"host_to_device_Bps", m.host_to_device_Bps}, {"device_to_host_Bps", m.device_to_host_Bps},
                {"host_memcpy_Bps", m.host_memcpy_Bps}, {"launch_latency_s", m.launch_latency_s},     {"samples", std::move(samples)}};
}

}  // namespace

json calibration_to_json(const calibration_profile& p) {
    json devices = json::array(), software = json::object(), cols = json::array();
    for (const auto& d : p.devices) devices.push_back({{"name", d.name}, {"memory_bytes", d.memory_bytes}, {"count", d.count}});
    for (const auto& [k, v] : p.software) software[k] = v;
    for (const auto& c : p.collectives) cols.push_back(collective_json(c));
    json out{{"schema", "tslab/calibration@1"},
             {"complete", p.complete},
             {"created", p.created},
             {"host", p.host},
             {"backend", p.backend},
             {"ranks", p.ranks},
             {"nodes", p.nodes},
             {"devices", std::move(devices)},
             {"software", std::move(software)},
             {"collectives", std::move(cols)},
             {"gemm", gemm_json(p.gemm)},
             {"memory", memory_json(p.memory)}};
    if (!p.provenance.empty()) out["provenance"] = detail::provenance_json(p.provenance);
    return out;
}

std::string calibration_json_text(const calibration_profile& p) { return calibration_to_json(p).dump(2); }

void fit_calibration(calibration_profile& p) {
    for (auto& c : p.collectives) {
        std::vector<double> x, y;
        for (const auto& s : c.samples) x.push_back(static_cast<double>(s.bytes)), y.push_back(s.time_s);
        const line_fit f = robust_alpha_beta(x, y);
        c.alpha_s = f.alpha;
        c.beta_s_per_byte = f.beta;
        c.fit = summary_of(f);
    }
    p.gemm.curves.clear();
    for (const char* dt : {"bf16", "fp16", "fp8", "tf32", "fp32"}) {
        std::vector<double> x, y;
        for (const auto& s : p.gemm.samples)
            if (s.dtype == dt) x.push_back(s.flops()), y.push_back(s.time_s);
        if (x.empty()) continue;
        const line_fit f = robust_alpha_beta(x, y);
        gemm_curve c;
        c.dtype = dt;
        c.flops_per_s_max = f.beta > 0 ? 1.0 / f.beta : 0;  // time = x_half/max + x/max
        c.x_half_flops = f.beta > 0 ? f.alpha / f.beta : 0;
        c.fit = summary_of(f);
        p.gemm.curves.push_back(std::move(c));
    }
}

}  // namespace tslab
