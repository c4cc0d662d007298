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

struct accuracy_row {
    std::string id;
    std::string source;  // "arXiv 2104.04473 Table 1": the paper and table the figure is read from
    std::string paper;   // the paper's full reference
    std::string kind, gpu;  // run class: dense | moe, GPU generation
    std::int64_t gpus = 0;
    std::string layout;  // "dp32 tp8 pp2 vpp2 interleaved"
    std::string metric;  // tflops_per_gpu | iteration_s | mfu | tokens_per_s
    double published = 0, predicted = 0;
    double error = 0;    // predicted / published − 1, on the metric as published
};

struct accuracy_report {
    std::string source;  // the file the rows came from
    std::vector<accuracy_row> rows;
    double mean_abs_error = 0, max_abs_error = 0;
    std::string max_row;  // id of the row with the largest |error|
};

// The metric the step model predicts for a published figure: tflops_per_gpu (step.tflops_per_gpu,
// FLOPs in the report's convention, which is eq. 3 of arXiv 2104.04473 for those rows),
// iteration_s (step.time_s), mfu (step.mfu), tokens_per_s (step.tokens_per_s).
std::vector<std::string> accuracy_metrics();

// One row parsed: its description (predicted and error still 0) and its scenario.
struct validation_case {
    accuracy_row row;
    scenario input;
};
std::vector<validation_case> parse_validation_cases(const json& doc);
// The row's metric as the step model predicts it for `s` (the row's scenario, or a variant of it).
double predict_case(const validation_case& c, const scenario& s);

// Parses a tslab/validation@1 document and predicts every row; input_error names the bad path.
accuracy_report predict_validation_set(const json& doc, const std::string& source);
accuracy_report predict_validation_text(const std::string& text, const std::string& source);

// JSON (schema tslab/accuracy@1) and a Markdown table (the README's accuracy table).
std::string accuracy_json_text(const accuracy_report& r);
std::string accuracy_markdown(const accuracy_report& r);

}  // namespace tslab
