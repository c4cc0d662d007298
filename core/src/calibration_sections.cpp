// Parsing the identity, GEMM and memory sections of a tslab/calibration@1 profile.
#include "calibration_detail.hpp"

namespace tslab::detail {

namespace {

gemm_sample parse_gemm_sample(const json& obj, const std::string& path) {
    field_reader r(obj, path);
    gemm_sample g;
    g.m = need_int(r, "m", 1, 1 << 24);
    g.n = need_int(r, "n", 1, 1 << 24);
    g.k = need_int(r, "k", 1, 1 << 24);
    require(r, "dtype");
    g.dtype = r.choice("dtype", "bf16", {"bf16", "fp16", "fp8", "fp32", "tf32"});
    g.time_s = need(r, "time_s", max_time);
    g.flops_per_s = need(r, "flops_per_s", max_rate);
    g.sm_clock_mhz = r.number("sm_clock_mhz", 0, 0, 1e5);
    g.power_w = r.number("power_w", 0, 0, 1e5);
    r.finish();
    if (g.time_s <= 0) throw input_error(r.path_of("time_s"), msg("calibration.must_be_positive"));
    return g;
}

gemm_curve parse_gemm_curve(const json& obj, const std::string& path, const std::vector<gemm_sample>& samples) {
    field_reader r(obj, path);
    gemm_curve c;
    require(r, "dtype");
    c.dtype = r.choice("dtype", "bf16", {"bf16", "fp16", "fp8", "fp32", "tf32"});
    c.flops_per_s_max = need(r, "flops_per_s_max", max_rate);
    c.x_half_flops = need(r, "x_half_flops", max_rate);
    std::size_t n = 0;
    for (const auto& s : samples) n += s.dtype == c.dtype ? 1 : 0;
    c.fit = parse_fit(r.object("fit"), r.path_of("fit"), n);
    r.finish();
    return c;
}

memory_sample parse_memory_sample(const json& obj, const std::string& path) {
    field_reader r(obj, path);
    memory_sample m;
    require(r, "probe");
    m.probe = r.choice("probe", "d2d", {"d2d", "h2d", "d2h", "memcpy", "launch"});
    m.bytes = need_int(r, "bytes", 0, static_cast<std::int64_t>(max_bytes));
    m.time_s = need(r, "time_s", max_time);
    m.Bps = need(r, "Bps", max_rate);
    r.finish();
    return m;
}

}  // namespace

gemm_section parse_gemm(const json* obj, const std::string& path) {
    field_reader r(*obj, path);
    gemm_section g;
    r.text("form", "");  // the curve's formula, written for readers; not interpreted
    const json& samples = need_array(r, "samples");
    for (std::size_t i = 0; i < samples.size(); ++i) g.samples.push_back(parse_gemm_sample(samples[i], at(r.path_of("samples"), i)));
    const json& curves = need_array(r, "curves");
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const std::string cp = at(r.path_of("curves"), i);
        gemm_curve c = parse_gemm_curve(curves[i], cp, g.samples);
        if (g.curve(c.dtype)) throw input_error(cp + ".dtype", msg("calibration.duplicate_curve", {{"dtype", c.dtype}}));
        g.curves.push_back(std::move(c));
    }
    r.finish();
    return g;
}

memory_figures parse_memory(const json* obj, const std::string& path) {
    field_reader r(*obj, path);
    memory_figures m;
    m.device_copy_Bps = need(r, "device_copy_Bps", max_rate);
    m.host_to_device_Bps = need(r, "host_to_device_Bps", max_rate);
    m.device_to_host_Bps = need(r, "device_to_host_Bps", max_rate);
    m.host_memcpy_Bps = need(r, "host_memcpy_Bps", max_rate);
    m.launch_latency_s = need(r, "launch_latency_s", max_time);
    const json& samples = need_array(r, "samples");
    for (std::size_t i = 0; i < samples.size(); ++i) m.samples.push_back(parse_memory_sample(samples[i], at(r.path_of("samples"), i)));
    r.finish();
    return m;
}

void parse_identity(field_reader& r, calibration_profile& p) {
    require(r, "complete");
    p.complete = r.boolean("complete", true);
    require(r, "created");
    p.created = r.text("created", "");
    require(r, "host");
    p.host = r.text("host", "");
    require(r, "backend");
    p.backend = r.choice("backend", "cpu", {"cuda", "cpu"});
    p.ranks = need_int(r, "ranks", 1, 1 << 24);
    p.nodes = need_int(r, "nodes", 1, 1 << 24);
    if (p.nodes > p.ranks)
        throw input_error(r.path_of("nodes"),
                          msg("calibration.nodes_exceed_ranks", {{"nodes", fmt::format("{}", p.nodes)}, {"ranks", fmt::format("{}", p.ranks)}}));
    const json& devices = need_array(r, "devices");
    for (std::size_t i = 0; i < devices.size(); ++i) {
        field_reader d(devices[i], at(r.path_of("devices"), i));
        device_info info;
        require(d, "name");
        info.name = d.text("name", "");
        info.memory_bytes = need(d, "memory_bytes", max_bytes);
        info.count = need_int(d, "count", 0, 1 << 24);
        d.finish();
        p.devices.push_back(std::move(info));
    }
    require(r, "software");
    const json* sw = r.object("software");
    for (auto it = sw->begin(); it != sw->end(); ++it) {
        if (!it.value().is_string()) throw input_error(r.path_of("software") + "." + it.key(), msg("calibration.expected_version_string"));
        p.software.emplace_back(it.key(), it.value().get<std::string>());
    }
}

}  // namespace tslab::detail
