// What a calibration profile replaces in a cluster, and the short summary the lab shows before using it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tslab/calibrated_figures.hpp"
#include "tslab/calibration.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// tslab/calibration-summary@1: identity (source, backend, host, created, ranks, nodes, complete,
// devices), counts of probes, the figures the profile replaces, its origin / cluster name / job id,
// and "warnings": sentences for the lab's badge (calibration_warnings.hpp; with `cluster`, also
// GPU-model and scale mismatches against it).
json calibration_summary_to_json(const calibration_profile& p, const cluster_spec* cluster = nullptr, std::int64_t world = 0);

// Facade for the browser: profile JSON text in, the summary as text (dump(2)) out. Throws
// input_error naming the path inside the profile ("collectives[0].alpha_s: must not be negative").
std::string calibration_summary_json_text(const std::string& profile_text);
// The same with the scenario the profile is applied to ("" = none), so the warnings cover its cluster.
std::string calibration_summary_json_text(const std::string& profile_text, const std::string& scenario_text);

}  // namespace tslab
