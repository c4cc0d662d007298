// The accuracy report as JSON (schema tslab/accuracy@1, fixed key order) and as the Markdown table
// the README carries (tests/validation/update_readme_table.sh writes it from `tslab accuracy`).
#include <cmath>

#include <fmt/format.h>

#include "tslab/json_writer.hpp"
#include "tslab/validation_cv.hpp"
#include "tslab/validation_fit.hpp"
#include "tslab/validation_set.hpp"

namespace tslab {

namespace {

void write_row(json_writer& w, const accuracy_row& a) {
    w.begin_object();
    w.field("id", a.id).field("source", a.source).field("paper", a.paper).field("kind", a.kind).field("gpu", a.gpu);
    w.field("gpus", a.gpus).field("layout", a.layout).field("metric", a.metric);
    w.field("published", a.published).field("predicted", a.predicted).field("error", a.error);
    w.field("family", a.family).field("fitted", a.fitted).field("training_family", a.training_family);
    w.field("cv_predicted", a.cv_predicted).field("cv_error", a.cv_error).field("outside_mean", a.outside_mean);
    w.end_object();
}

void write_names(json_writer& w, const char* key, const std::vector<std::string>& names) {
    w.key(key).begin_array();
    for (const auto& n : names) w.value(n);
    w.end_array();
}

void write_family(json_writer& w, const accuracy_family& f) {
    w.begin_object();
    w.field("family", f.family).field("runs", f.runs).field("fitted", f.fitted);
    w.field("mean_abs_error", f.mean_abs_error).field("max_abs_error", f.max_abs_error);
    w.field("cv_mean_abs_error", f.cv_mean_abs_error).field("cv_max_abs_error", f.cv_max_abs_error);
    w.field("refit_in_step", f.in_step).field("refit_gpu_speed_cv", f.gpu_speed_cv);
    write_names(w, "at_bound", f.at_bound);
    w.end_object();
}

void write_fit(json_writer& w) {
    const double in_step = gemm_rates{}.in_step, cv = cluster_spec{}.gpu_speed_cv;
    w.key("fit").begin_object();
    w.field("routine", "fit_step_model: minimax of |ln(predicted / published)| over the training set (validation_fit.hpp)");
    w.field("in_step", in_step).field("in_step_range", fmt::format("[{}, {}]", min_in_step, max_in_step));
    w.field("gpu_speed_cv", cv).field("gpu_speed_cv_range", fmt::format("[0, {}]", max_gpu_speed_cv));
    write_names(w, "at_bound", constants_at_bound(in_step, cv));
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
        w.field("counted", r.counted).field("mean_abs_error", r.mean_abs_error).field("max_abs_error", r.max_abs_error).field("max_row", r.max_row);
        w.field("cv_mean_abs_error", r.cv_mean_abs_error).field("cv_max_abs_error", r.cv_max_abs_error).field("cv_max_row", r.cv_max_row);
        write_fit(w);
        w.key("families").begin_array();
        for (const auto& f : r.families) write_family(w, f);
        w.end_array();
        w.end_object();
    });
}

namespace {

// The cross-validated column: the error without the row's family in the fit, or "held out".
std::string cv_cell(const accuracy_row& a) { return a.fitted ? percent(a.cv_error) : "held out"; }

std::string bound_text(const std::vector<std::string>& names) {
    if (names.empty()) return "none";
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string families_markdown(const accuracy_report& r) {
    std::string out =
        "| family | runs | in the fit | mean / max error | without it: mean / max | refit without it (in_step, gpu_speed_cv) | at a bound |\n";
    out += "|---|---:|---|---:|---:|---|---|\n";
    for (const auto& f : r.families) {
        const std::string refit = f.fitted ? fmt::format("{:.3f}, {:.4f}", f.in_step, f.gpu_speed_cv) : "—";
        out += fmt::format("| {} | {} | {} | {:.1f}% / {:.1f}% | {} | {} | {} |\n", f.family, f.runs, f.fitted ? "yes" : "no", 100 * f.mean_abs_error,
                           100 * f.max_abs_error,
                           f.fitted ? fmt::format("{:.1f}% / {:.1f}%", 100 * f.cv_mean_abs_error, 100 * f.cv_max_abs_error) : "held out", refit,
                           f.fitted ? bound_text(f.at_bound) : "—");
    }
    return out;
}

}  // namespace

std::string accuracy_markdown(const accuracy_report& r) {
    std::string out = "| run | source | class | GPUs | layout | metric | published | predicted | error | without its family |\n";
    out += "|---|---|---|---:|---|---|---:|---:|---:|---:|\n";
    std::string outside;
    for (const auto& a : r.rows) {
        const std::string mark = a.outside_mean.empty() ? "" : "*";
        out += fmt::format("| {}{} | {} | {} {} | {} | {} | {} | {} | {} | {} | {} |\n", a.id, mark, a.source, a.kind, a.gpu, a.gpus, a.layout,
                           a.metric, figure(a.metric, a.published), figure(a.metric, a.predicted), percent(a.error), cv_cell(a));
        if (!a.outside_mean.empty() && outside.empty()) outside = a.outside_mean;
    }
    out += fmt::format("\n{} runs from {} ({} counted); mean |error| {:.1f}%, max |error| {:.1f}% ({}).", r.rows.size(), r.source, r.counted,
                       100 * r.mean_abs_error, 100 * r.max_abs_error, r.max_row);
    out += fmt::format(
        " Cross-validated (each family predicted by the constants fitted without it; held-out runs as they are): mean {:.1f}%, max {:.1f}% ({}).\n",
        100 * r.cv_mean_abs_error, 100 * r.cv_max_abs_error, r.cv_max_row);
    if (!outside.empty()) out += fmt::format("\n\\* listed, not counted: {}\n", outside);
    const double in_step = gemm_rates{}.in_step, cv = cluster_spec{}.gpu_speed_cv;
    out += fmt::format("\nFitted on the training set: in_step {:.3f} in [{}, {}], gpu_speed_cv {:.4f} in [0, {}]; at a bound: {}.\n\n", in_step,
                       min_in_step, max_in_step, cv, max_gpu_speed_cv, bound_text(constants_at_bound(in_step, cv)));
    return out + families_markdown(r);
}

}  // namespace tslab
