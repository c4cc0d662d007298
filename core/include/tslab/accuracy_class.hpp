// The model's measured error on the published runs closest to a scenario: its run class (dense or
// MoE, GPU generation) looked up in the embedded validation set, for the lab's accuracy note.
#pragma once

#include <cstdint>
#include <string>

#include "tslab/scenario.hpp"
#include "tslab/validation_set.hpp"

namespace tslab {

// "a100", "h100" (Hopper: H100, H800, H200), "b200", or "other"; the validation rows' class.gpu.
std::string gpu_generation_of(const gpu_spec& g);

struct accuracy_class_summary {
    std::string kind, gpu;     // the scenario's class
    std::string match_kind, match_gpu;  // the class of the rows summarised
    // "class": the same kind and generation; "generation": same generation, other kind; "kind": same
    // kind, another generation; "any": nothing closer; "none": the set is empty.
    std::string match;
    std::int64_t runs = 0;
    double mean_abs_error = 0, max_abs_error = 0;
    std::string max_row;
    std::string note;  // one sentence for the reader
};

accuracy_class_summary closest_accuracy_class(const scenario& s, const accuracy_report& r);

// The embedded training set predicted once per process (each row is a full report: ~16 reports).
const accuracy_report& embedded_accuracy();

// Facade entry point (CLI and wasm): a scenario's text in, the summary as JSON (tslab/accuracy-class@1).
std::string accuracy_class_json_text(const std::string& scenario_text);

}  // namespace tslab
