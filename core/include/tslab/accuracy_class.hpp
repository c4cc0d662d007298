// The model's expected error for a scenario: the out-of-sample errors of the published runs closest
// to its run class (dense or MoE, GPU generation, GEMM dtype, context length), and the step time as
// the range those errors imply, for the lab's accuracy note.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/scenario.hpp"
#include "tslab/validation_set.hpp"

namespace tslab {

// "a100", "h100" (Hopper: H100, H800, H200), "b200", or "other"; the validation rows' class.gpu.
std::string gpu_generation_of(const gpu_spec& g);

struct accuracy_class_summary {
    std::string kind, gpu, dtype, context;  // the scenario's class
    // The class of the rows summarised: the keys kept (empty = any value).
    std::string match_kind, match_gpu, match_dtype, match_context;
    // "class": all four keys; "dtype": kind, GPU and dtype; "generation": kind and GPU; "gpu": GPU
    // only; "kind": kind only; "any": nothing closer; "none": no run to compare with.
    std::string match;
    std::int64_t runs = 0;
    // Out-of-sample |error| of those runs: training runs predicted without their family (leave one
    // family out), the other published runs as predicted.
    double mean_abs_error = 0, max_abs_error = 0;
    std::string max_row;
    // The published step time over the predicted one on those runs, widened to include 1: the step
    // time is expected in [low, high] × the prediction.
    double time_low = 1, time_high = 1;
    std::string note;  // one sentence for the reader
};

// The rows a scenario's class is compared with: the training set (cross-validated errors) and the
// published runs that no fit has seen, without memory rows and rows listed outside the mean.
std::vector<accuracy_row> out_of_sample_rows(const accuracy_report& training, const accuracy_report& published);

accuracy_class_summary closest_accuracy_class(const scenario& s, const std::vector<accuracy_row>& rows);

// The embedded training set predicted once per process (each row is a full report: ~16 reports).
const accuracy_report& embedded_accuracy();
// The embedded published runs, likewise (~19 reports).
const accuracy_report& embedded_published_accuracy();

// Facade entry point (CLI and wasm): a scenario's text in, the summary and its step-time range as
// JSON (tslab/accuracy-class@1).
std::string accuracy_class_json_text(const std::string& scenario_text);

}  // namespace tslab
