// The accuracy report as JSON (schema tslab/accuracy@1, fixed key order) and as the Markdown table
// the README carries (tests/validation/update_readme_table.sh writes it from `tslab accuracy`).
#include <cmath>

#include <fmt/format.h>

#include "tslab/json_writer.hpp"
#include "tslab/validation_set.hpp"

namespace tslab {

namespace {

void write_row(json_writer& w, const accuracy_row& a) {
    w.begin_object();
    w.field("id", a.id).field("source", a.source).field("paper", a.paper).field("kind", a.kind).field("gpu", a.gpu);
    w.field("gpus", a.gpus).field("layout", a.layout).field("metric", a.metric);
    w.field("published", a.published).field("predicted", a.predicted).field("error", a.error);
    w.end_object();
}

// Published and predicted figures at the precision the metric is printed in.
std::string figure(const std::string& metric, double v) {
    if (metric == "mfu") return fmt::format("{:.1f}%", 100 * v);
    if (metric == "tokens_per_s") return fmt::format("{:.4g}", v);
    if (metric == "iteration_s") return fmt::format("{:.3f}", v);
    return fmt::format("{:.1f}", v);
}

std::string percent(double e) { return fmt::format("{:+.1f}%", 100 * e); }

}  // namespace

std::string accuracy_json_text(const accuracy_report& r) {
    return write_json([&](json_writer& w) {
        w.begin_object();
        w.field("schema", "tslab/accuracy@1").field("source", r.source);
        w.field("error", "predicted / published − 1, on the metric as published");
        w.key("rows").begin_array();
        for (const auto& a : r.rows) write_row(w, a);
        w.end_array();
        w.field("mean_abs_error", r.mean_abs_error).field("max_abs_error", r.max_abs_error).field("max_row", r.max_row);
        w.end_object();
    });
}

std::string accuracy_markdown(const accuracy_report& r) {
    std::string out = "| run | source | class | GPUs | layout | metric | published | predicted | error |\n";
    out += "|---|---|---|---:|---|---|---:|---:|---:|\n";
    for (const auto& a : r.rows)
        out += fmt::format("| {} | {} | {} {} | {} | {} | {} | {} | {} | {} |\n", a.id, a.source, a.kind, a.gpu, a.gpus, a.layout,
                           a.metric, figure(a.metric, a.published), figure(a.metric, a.predicted), percent(a.error));
    out += fmt::format("\n{} runs from {}; mean |error| {:.1f}%, max |error| {:.1f}% ({}).\n", r.rows.size(), r.source,
                       100 * r.mean_abs_error, 100 * r.max_abs_error, r.max_row);
    return out;
}

}  // namespace tslab
