// Loading tslab/validation@1 rows and predicting each with the integrated step model. A row is a
// published run (its citation, class, scenario and figure); the prediction is the same number
// `tslab report` prints for that scenario, in the metric the paper published.
#include "tslab/validation_set.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tslab/errors.hpp"
#include "tslab/numerics.hpp"
#include "tslab/report.hpp"

namespace tslab {

namespace {

const json& member(const json& obj, const char* key, const std::string& path) {
    if (!obj.is_object() || !obj.contains(key)) throw input_error(path + "." + key, msg("input.missing"));
    return obj.at(key);
}

std::string text_of(const json& obj, const char* key, const std::string& path) {
    const json& v = member(obj, key, path);
    if (!v.is_string()) throw input_error(path + "." + key, msg("input.must_be_string"));
    return v.get<std::string>();
}

double metric_of(const report& r, const std::string& metric) {
    const step_result& st = r.step;
    if (metric == "tflops_per_gpu") return st.tflops_per_gpu;
    if (metric == "iteration_s") return st.time_s;
    if (metric == "mfu") return st.mfu;
    if (metric == "tokens_per_s_per_gpu") return st.tokens_per_s / static_cast<double>(r.input.parallel.world());
    if (metric == "memory_gib") return r.memory.total_bytes / 1073741824.0;
    return st.tokens_per_s;  // tokens_per_s: the metric was checked against accuracy_metrics()
}

std::string optional_text(const json& obj, const char* key, const std::string& path) {
    return obj.contains(key) ? text_of(obj, key, path) : std::string();
}

// "arXiv 2104.04473 Table 1", or for a source without an arXiv id "<paper> <table>" (the paper
// names the document; source.url says where it is).
std::string source_label(const json& src, const std::string& path) {
    const std::string table = text_of(src, "table", path);
    if (src.contains("arxiv")) return fmt::format("arXiv {} {}", text_of(src, "arxiv", path), table);
    if (!src.contains("url")) throw input_error(path + ".arxiv", msg("validation.source_without_id"));
    text_of(src, "url", path);
    return fmt::format("{} {}", text_of(src, "paper", path), table);
}

// "dp32 tp8 pp2 vpp2 interleaved" (cp, ep, sp and ZeRO only where used).
std::string layout_of(const scenario& s) {
    const auto& p = s.parallel;
    std::string out = fmt::format("dp{} tp{} pp{}", p.dp, p.tp, p.pp);
    if (p.vpp > 1) out += fmt::format(" vpp{}", p.vpp);
    if (p.cp > 1) out += fmt::format(" cp{} {}", p.cp, to_string(p.cp_method));
    if (p.ep > 1) out += fmt::format(" ep{}", p.ep);
    if (p.sp && p.tp > 1) out += " sp";
    if (p.zero > 0) out += fmt::format(" zero{}", p.zero);
    return out + " " + to_string(s.training.schedule);
}

validation_case parse_row(const json& row, const std::string& path) {
    validation_case c;
    accuracy_row& a = c.row;
    a.id = text_of(row, "id", path);
    const json& src = member(row, "source", path);
    a.paper = text_of(src, "paper", path + ".source");
    a.source = source_label(src, path + ".source");
    a.family = optional_text(row, "family", path);
    if (a.family.empty()) a.family = a.source;
    a.training_family = optional_text(row, "training_family", path);
    a.outside_mean = optional_text(row, "outside_mean", path);
    const json& cls = member(row, "class", path);
    a.kind = text_of(cls, "kind", path + ".class");
    a.gpu = text_of(cls, "gpu", path + ".class");
    const json& pub = member(row, "published", path);
    a.metric = text_of(pub, "metric", path + ".published");
    const auto metrics = accuracy_metrics();
    if (std::find(metrics.begin(), metrics.end(), a.metric) == metrics.end())
        throw input_error(path + ".published.metric",
                          msg("validation.unknown_metric", {{"metric", a.metric}, {"metrics", fmt::format("{}", fmt::join(metrics, ", "))}}));
    const json& v = member(pub, "value", path + ".published");
    if (!v.is_number() || !(v.get<double>() > 0)) throw input_error(path + ".published.value", msg("input.must_be_positive_number"));
    a.published = v.get<double>();
    try {
        c.input = parse_scenario(member(row, "scenario", path));
    } catch (const input_error& e) {
        throw input_error(path + ".scenario." + e.path(), e.msg());
    }
    a.gpus = c.input.parallel.world();
    a.dtype = dtype_class_of(c.input);
    a.context = context_class_of(c.input);
    a.layout = layout_of(c.input);
    return c;
}

}  // namespace

std::string dtype_class_of(const scenario& s) { return fp8_casts_active(s) ? "fp8" : "bf16"; }
std::string context_class_of(const scenario& s) { return s.training.seq_len >= 32768 ? "long" : "short"; }

double predict_case(const validation_case& c, const scenario& s) { return metric_of(build_report(s, 0), c.row.metric); }

std::vector<validation_case> parse_validation_cases(const json& doc) {
    if (!doc.is_object()) throw input_error("(root)", msg("validation.not_object"));
    if (doc.value("schema", std::string()) != "tslab/validation@1") throw input_error("schema", msg("validation.schema"));
    const json& rows = member(doc, "rows", "");
    if (!rows.is_array() || rows.empty()) throw input_error("rows", msg("input.must_be_non_empty_array"));
    std::vector<validation_case> out;
    for (std::size_t i = 0; i < rows.size(); ++i) out.push_back(parse_row(rows[i], fmt::format("rows[{}]", i)));
    return out;
}

std::vector<std::string> accuracy_metrics() { return {"tflops_per_gpu", "iteration_s", "mfu", "tokens_per_s", "tokens_per_s_per_gpu", "memory_gib"}; }

double time_ratio_of(const accuracy_row& r, double error) {
    if (r.metric == "memory_gib") return 0;
    return r.metric == "iteration_s" ? 1 / (1 + error) : 1 + error;
}

}  // namespace tslab
