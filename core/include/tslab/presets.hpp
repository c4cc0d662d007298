// Built-in presets: models, GPUs and clusters, each as plain JSON with its source.
#pragma once

#include <string>
#include <vector>

#include "tslab/json_fields.hpp"

namespace tslab {

// The preset's fields as a scenario part; throws input_error(path, ...) for an unknown name.
json model_preset(const std::string& name, const std::string& path);
json cluster_preset(const std::string& name, const std::string& path);
json gpu_preset(const std::string& name, const std::string& path);

std::vector<std::string> model_preset_names();
std::vector<std::string> cluster_preset_names();
std::vector<std::string> gpu_preset_names();

// Every preset and, under "vocabulary", every descriptor row and the scenario defaults
// (vocabulary_json), for `tslab presets` and the lab's pickers.
json presets_json();

// The closed vocabularies (schedules, optimizers, precision recipes and fields, recompute modes, dtypes,
// CP methods, mesh axes, the recommended order) and "defaults", generated from the rows.
json vocabulary_json();

}  // namespace tslab
