// Matching a scenario to the closest run class of the out-of-sample rows and summarising their
// errors as an expected error and a step-time range.
#include "tslab/accuracy_class.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/json_writer.hpp"
#include "tslab/report.hpp"
#include "tslab/validation_cv.hpp"

namespace tslab {

std::string gpu_generation_of(const gpu_spec& g) {
    const std::string& n = g.name;
    if (n.find("A100") != std::string::npos) return "a100";
    for (const char* hopper : {"H100", "H800", "H200"})
        if (n.find(hopper) != std::string::npos) return "h100";
    if (n.find("B200") != std::string::npos) return "b200";
    return "other";
}

std::vector<accuracy_row> out_of_sample_rows(const accuracy_report& training, const accuracy_report& published) {
    std::vector<accuracy_row> out;
    for (const auto& a : training.rows)
        if (a.outside_mean.empty() && time_ratio_of(a, a.cv_error) > 0) out.push_back(a);
    for (const auto& a : published.rows)
        if (!a.fitted && a.outside_mean.empty() && time_ratio_of(a, a.cv_error) > 0) out.push_back(a);
    return out;
}

namespace {

struct class_key {
    const char* match;
    bool kind, gpu, dtype, context;
};

bool matches(const accuracy_row& a, const accuracy_class_summary& c, const class_key& k) {
    return (!k.kind || a.kind == c.kind) && (!k.gpu || a.gpu == c.gpu) && (!k.dtype || a.dtype == c.dtype) && (!k.context || a.context == c.context);
}

accuracy_class_summary summarise(accuracy_class_summary c, const std::vector<accuracy_row>& rows, const class_key& k) {
    c.match = k.match;
    c.match_kind = k.kind ? c.kind : "", c.match_gpu = k.gpu ? c.gpu : "";
    c.match_dtype = k.dtype ? c.dtype : "", c.match_context = k.context ? c.context : "";
    double sum = 0;
    for (const auto& a : rows) {
        if (!matches(a, c, k)) continue;
        ++c.runs;
        const double e = std::abs(a.cv_error), r = time_ratio_of(a, a.cv_error);
        sum += e;
        if (e > c.max_abs_error) c.max_abs_error = e, c.max_row = a.id;
        c.time_low = std::min(c.time_low, r), c.time_high = std::max(c.time_high, r);
    }
    c.mean_abs_error = c.runs > 0 ? sum / static_cast<double>(c.runs) : 0;
    return c;
}

std::string class_text(const accuracy_class_summary& c) {
    std::string out;
    for (const std::string* k : {&c.match_kind, &c.match_gpu, &c.match_dtype})
        if (!k->empty()) out += (out.empty() ? "" : " ") + *k;
    if (!c.match_context.empty()) out += (out.empty() ? "" : " ") + c.match_context + "-context";
    return out.empty() ? "all" : out;
}

}  // namespace

accuracy_class_summary closest_accuracy_class(const scenario& s, const std::vector<accuracy_row>& rows) {
    accuracy_class_summary c;
    c.kind = s.model.is_moe() ? "moe" : "dense";
    c.gpu = gpu_generation_of(s.cluster.gpu);
    c.dtype = dtype_class_of(s), c.context = context_class_of(s);
    // The closest rows first: every key, then the keys that move the error least dropped first.
    static const class_key tries[] = {{"class", true, true, true, true},        {"dtype", true, true, true, false},
                                      {"generation", true, true, false, false}, {"gpu", false, true, false, false},
                                      {"kind", true, false, false, false},      {"any", false, false, false, false}};
    for (const auto& k : tries) {
        accuracy_class_summary t = summarise(c, rows, k);
        if (t.runs == 0) continue;
        t.note = fmt::format(
            "on {} published {} runs the model is off by {:.1f}% on average, {:.1f}% at most ({}), each predicted by constants "
            "not fitted to it",
            t.runs, class_text(t), 100 * t.mean_abs_error, 100 * t.max_abs_error, t.max_row);
        if (t.match != "class")
            t.note += fmt::format("; no published {} {} {} {}-context run is in the validation sets", c.kind, c.gpu, c.dtype, c.context);
        return t;
    }
    c.match = "none";
    c.note = "the validation sets are empty";
    return c;
}

const accuracy_report& embedded_accuracy() {
    static const accuracy_report r = predict_validation_text(embedded_validation_set(), embedded_validation_path);
    return r;
}

const accuracy_report& embedded_published_accuracy() {
    static const accuracy_report r = predict_validation_text(embedded_published_runs(), embedded_published_path);
    return r;
}

std::string accuracy_class_json_text(const std::string& scenario_text) {
    const scenario s = parse_scenario_text(scenario_text);
    static const std::vector<accuracy_row> rows = out_of_sample_rows(embedded_accuracy(), embedded_published_accuracy());
    const accuracy_class_summary c = closest_accuracy_class(s, rows);
    const double t = build_report(s, 0).step.time_s;
    return write_json([&](json_writer& w) {
        w.begin_object();
        w.field("schema", "tslab/accuracy-class@1").field("kind", c.kind).field("gpu", c.gpu).field("dtype", c.dtype).field("context", c.context);
        w.field("match", c.match).field("match_kind", c.match_kind).field("match_gpu", c.match_gpu);
        w.field("match_dtype", c.match_dtype).field("match_context", c.match_context).field("runs", c.runs);
        w.field("mean_abs_error", c.mean_abs_error).field("max_abs_error", c.max_abs_error).field("max_row", c.max_row);
        w.field("step_time_s", t).field("time_low", c.time_low).field("time_high", c.time_high);
        w.field("step_time_low_s", t * c.time_low).field("step_time_high_s", t * c.time_high);
        w.field("note", c.note).field("table", "README.md#accuracy (tslab accuracy, tslab accuracy --published)");
        w.end_object();
    });
}

}  // namespace tslab
