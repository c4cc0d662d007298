// Accuracy against published training runs: the rows of a tslab/validation@1 file (each a cited
// run, its scenario, the published figure and the stated assumptions), each predicted by the
// integrated step model (build_report), with the signed error and the mean and largest |error|.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/json_fields.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// The repository's training set (tests/validation/training_set.json), embedded at build time.
const std::string& embedded_validation_set();
// Where the embedded text came from, relative to the repository root.
inline constexpr const char* embedded_validation_path = "tests/validation/training_set.json";
// The published runs the model is validated on and not fitted to (tests/validation/published_runs.json).
const std::string& embedded_published_runs();
inline constexpr const char* embedded_published_path = "tests/validation/published_runs.json";

struct accuracy_row {
    std::string id;
    std::string source;  // "arXiv 2104.04473 Table 1": the paper and table the figure is read from
    std::string paper;  // the paper's full reference
    std::string kind, gpu;  // run class: dense | moe, GPU generation
    std::string dtype, context;  // from the scenario: bf16 | fp8 (GEMMs), short | long (seq_len ≥ 32K)
    // The family the row is cross-validated with (its `family`, default the source): a paper's table.
    std::string family;
    // Set when the row is a training-set run listed again here: the training family it was fitted in.
    std::string training_family;
    // Why the row is listed but left out of the mean and max (empty: it counts).
    std::string outside_mean;
    std::int64_t gpus = 0;
    std::string layout;  // "dp32 tp8 pp2 vpp2 interleaved"
    std::string metric;  // tflops_per_gpu | iteration_s | mfu | tokens_per_s
    double published = 0, predicted = 0;
    double error = 0;  // predicted / published − 1, on the metric as published
    // Leave one family out: the row predicted with the constants fitted without its family (fitted =
    // its family is in the training set); for a run no fit has seen, cv_error = error.
    bool fitted = false;
    double cv_predicted = 0, cv_error = 0;
};

// One family of rows: in-sample and cross-validated errors, and the constants fitted without it.
struct accuracy_family {
    std::string family;
    std::int64_t runs = 0;  // rows counted (outside_mean rows are not)
    bool fitted = false;
    double mean_abs_error = 0, max_abs_error = 0, cv_mean_abs_error = 0, cv_max_abs_error = 0;
    double in_step = 0, gpu_speed_cv = 0;  // the refit without this family (fitted families only)
    std::vector<std::string> at_bound;  // constants of that refit held at a bound of their range
};

struct accuracy_report {
    std::string source;  // the file the rows came from
    std::vector<accuracy_row> rows;
    double mean_abs_error = 0, max_abs_error = 0;
    std::string max_row;  // id of the row with the largest |error|
    double cv_mean_abs_error = 0, cv_max_abs_error = 0;
    std::string cv_max_row;
    std::int64_t counted = 0;  // rows in the mean (without outside_mean rows)
    std::vector<accuracy_family> families;
};

// The metric the step model predicts for a published figure: tflops_per_gpu (step.tflops_per_gpu,
// FLOPs in the report's convention, which is eq. 3 of arXiv 2104.04473 for those rows),
// iteration_s (step.time_s), mfu (step.mfu), tokens_per_s (step.tokens_per_s),
// tokens_per_s_per_gpu (step.tokens_per_s / GPUs), memory_gib (the most loaded GPU's HBM total, GiB).
std::vector<std::string> accuracy_metrics();
// The published step time over the predicted one implied by a row's error (1 + e for a throughput
// metric, 1 / (1 + e) for iteration_s); 0 for memory_gib, which says nothing about time.
double time_ratio_of(const accuracy_row& r, double error);

// One row parsed: its description (predicted and error still 0) and its scenario.
struct validation_case {
    accuracy_row row;
    scenario input;
};
std::vector<validation_case> parse_validation_cases(const json& doc);
// The row's metric as the step model predicts it for `s` (the row's scenario, or a variant of it).
double predict_case(const validation_case& c, const scenario& s);

// The run class of a scenario beyond kind and GPU: "fp8" when its GEMMs run in FP8, else "bf16";
// "long" from 32K tokens per sequence (where context parallelism starts to matter), else "short".
std::string dtype_class_of(const scenario& s);
std::string context_class_of(const scenario& s);

// predict_validation_set / predict_validation_text (every row predicted and cross-validated):
// validation_cv.hpp, the module above this one.

// JSON (schema tslab/accuracy@1) and a Markdown table (the README's accuracy table).
std::string accuracy_json_text(const accuracy_report& r);
std::string accuracy_markdown(const accuracy_report& r);

}  // namespace tslab
