// Matching a scenario to the closest run class of the validation set and summarising its errors.
#include "tslab/accuracy_class.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/json_writer.hpp"

namespace tslab {

std::string gpu_generation_of(const gpu_spec& g) {
    const std::string& n = g.name;
    if (n.find("A100") != std::string::npos) return "a100";
    for (const char* hopper : {"H100", "H800", "H200"})
        if (n.find(hopper) != std::string::npos) return "h100";
    if (n.find("B200") != std::string::npos) return "b200";
    return "other";
}

namespace {

accuracy_class_summary summarise(accuracy_class_summary c, const accuracy_report& r, const std::string& kind, const std::string& gpu) {
    c.match_kind = kind, c.match_gpu = gpu;
    double sum = 0;
    for (const auto& a : r.rows) {
        if ((!kind.empty() && a.kind != kind) || (!gpu.empty() && a.gpu != gpu)) continue;
        ++c.runs;
        sum += std::abs(a.error);
        if (std::abs(a.error) > c.max_abs_error) c.max_abs_error = std::abs(a.error), c.max_row = a.id;
    }
    c.mean_abs_error = c.runs > 0 ? sum / static_cast<double>(c.runs) : 0;
    return c;
}

}  // namespace

accuracy_class_summary closest_accuracy_class(const scenario& s, const accuracy_report& r) {
    accuracy_class_summary c;
    c.kind = s.model.is_moe() ? "moe" : "dense";
    c.gpu = gpu_generation_of(s.cluster.gpu);
    // The closest rows first: the same class, then the same GPU generation, then the same kind, then any.
    const std::pair<const char*, std::pair<std::string, std::string>> tries[] = {
        {"class", {c.kind, c.gpu}}, {"generation", {"", c.gpu}}, {"kind", {c.kind, ""}}, {"any", {"", ""}}};
    for (const auto& [match, key] : tries) {
        accuracy_class_summary t = summarise(c, r, key.first, key.second);
        if (t.runs == 0) continue;
        t.match = match;
        const std::string what = key.first.empty() && key.second.empty() ? "all runs" : fmt::format("{}{}{} runs", key.first,
                                                                                                      key.first.empty() || key.second.empty() ? "" : " ", key.second);
        t.note = fmt::format("on {} published {} the model is off by {:.1f}% on average, {:.1f}% at most ({})", t.runs, what,
                             100 * t.mean_abs_error, 100 * t.max_abs_error, t.max_row);
        if (t.match != "class") t.note += fmt::format("; no published {} {} run is in the validation set", c.kind, c.gpu);
        return t;
    }
    c.match = "none";
    c.note = "the validation set is empty";
    return c;
}

const accuracy_report& embedded_accuracy() {
    static const accuracy_report r = predict_validation_text(embedded_validation_set(), embedded_validation_path);
    return r;
}

std::string accuracy_class_json_text(const std::string& scenario_text) {
    const scenario s = parse_scenario_text(scenario_text);
    const accuracy_class_summary c = closest_accuracy_class(s, embedded_accuracy());
    return write_json([&](json_writer& w) {
        w.begin_object();
        w.field("schema", "tslab/accuracy-class@1").field("kind", c.kind).field("gpu", c.gpu);
        w.field("match", c.match).field("match_kind", c.match_kind).field("match_gpu", c.match_gpu).field("runs", c.runs);
        w.field("mean_abs_error", c.mean_abs_error).field("max_abs_error", c.max_abs_error).field("max_row", c.max_row);
        w.field("note", c.note).field("table", "README.md#accuracy (tslab accuracy)");
        w.end_object();
    });
}

}  // namespace tslab
