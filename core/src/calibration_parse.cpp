// Strict parsing of tslab/calibration@1: required fields, ranges, op names, duplicates.
#include <fmt/format.h>

#include "tslab/calibration.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "calibration_detail.hpp"

namespace tslab {

namespace detail {

fit_summary parse_fit(const json* obj, const std::string& path, std::size_t samples) {
    if (!obj) throw input_error(path, msg("calibration.missing_field"));
    field_reader r(*obj, path);
    fit_summary f;
    f.method = r.text("method", f.method);
    f.rel_residuals = numbers(need_array(r, "rel_residuals"), r.path_of("rel_residuals"));
    if (f.rel_residuals.size() != samples)
        throw input_error(
            r.path_of("rel_residuals"),
            msg("calibration.residuals_count", {{"entries", fmt::format("{}", f.rel_residuals.size())}, {"samples", fmt::format("{}", samples)}}));
    f.rms_rel = need(r, "rms_rel", max_rate);
    f.max_abs_rel = need(r, "max_abs_rel", max_rate);
    f.outliers = need_int(r, "outliers", 0, static_cast<std::int64_t>(samples));
    r.finish();
    return f;
}

}  // namespace detail

namespace {

using namespace detail;

collective_sample parse_collective_sample(const json& obj, const std::string& path) {
    field_reader r(obj, path);
    collective_sample s;
    s.bytes = need_int(r, "bytes", 0, static_cast<std::int64_t>(max_bytes));
    s.time_s = need(r, "time_s", max_time);
    s.algbw_Bps = need(r, "algbw_Bps", max_rate);
    s.busbw_Bps = need(r, "busbw_Bps", max_rate);
    s.time_min_s = need(r, "time_min_s", max_time);
    s.time_max_s = need(r, "time_max_s", max_time);
    r.finish();
    if (s.time_s <= 0) throw input_error(r.path_of("time_s"), msg("calibration.must_be_positive"));
    if (s.time_min_s > s.time_s || s.time_s > s.time_max_s)
        throw input_error(r.path_of("time_s"),
                          msg("calibration.median_outside", {{"median", num(s.time_s)}, {"min", num(s.time_min_s)}, {"max", num(s.time_max_s)}}));
    return s;
}

collective_op parse_fit_op(field_reader& r) {
    require(r, "op");
    std::vector<std::string> names;
    for (const auto& d : collective_table()) names.emplace_back(d.name);
    return *collective_from_name(r.choice("op", "", names));
}

collective_fit parse_collective(const json& obj, const std::string& path) {
    field_reader r(obj, path);
    collective_fit c;
    c.op = parse_fit_op(r);
    c.ranks = need_int(r, "ranks", 1, 1 << 24);
    require(r, "scope");
    c.scope = r.choice("scope", "intra", {"intra", "inter"}) == "inter" ? link_scope::inter : link_scope::intra;
    c.in_place = r.boolean("in_place", false);
    c.timer = r.choice("timer", "steady_clock", {"steady_clock", "cuda_events"});
    c.alpha_s = need(r, "alpha_s", max_time);
    c.beta_s_per_byte = need(r, "beta_s_per_byte", max_time);
    const json& samples = need_array(r, "samples");
    for (std::size_t i = 0; i < samples.size(); ++i) c.samples.push_back(parse_collective_sample(samples[i], at(r.path_of("samples"), i)));
    c.fit = parse_fit(r.object("fit"), r.path_of("fit"), c.samples.size());
    r.finish();
    return c;
}

}  // namespace

calibration_profile parse_calibration(const json& doc, const std::string& path) {
    field_reader r(doc, path);
    require(r, "schema");
    const std::string schema = r.text("schema", "");
    if (schema != "tslab/calibration@1") throw input_error(r.path_of("schema"), msg("calibration.schema_unsupported", {{"schema", schema}}));
    calibration_profile p;
    detail::parse_identity(r, p);
    const json& cols = need_array(r, "collectives");
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const std::string cp = at(r.path_of("collectives"), i);
        collective_fit c = parse_collective(cols[i], cp);
        if (const collective_fit* dup = p.find(c.op, c.ranks, c.scope))
            throw input_error(cp,
                              msg("calibration.duplicate_entry",
                                  {{"op", describe(c.op).name},
                                   {"ranks", fmt::format("{}", c.ranks)},
                                   {"scope", to_string(c.scope)},
                                   {"index", fmt::format("{}", dup - p.collectives.data())}}));
        p.collectives.push_back(std::move(c));
    }
    require(r, "gemm");
    p.gemm = detail::parse_gemm(r.object("gemm"), r.path_of("gemm"));
    require(r, "memory");
    p.memory = detail::parse_memory(r.object("memory"), r.path_of("memory"));
    if (const json* prov = r.raw("provenance")) p.provenance = detail::parse_provenance(*prov, r.path_of("provenance"));
    r.finish();
    return p;
}

calibration_profile parse_calibration_text(const std::string& text, const std::string& path) {
    return parse_calibration(parse_json(text, path), path);
}

}  // namespace tslab
