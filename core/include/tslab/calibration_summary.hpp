// What a calibration profile replaces in a cluster, and the short summary the lab shows before using it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// The measured figures a profile puts in place of a cluster's datasheet ones; each is absent
// when the profile has nothing to measure it by. apply_calibration (scenario.cpp) uses exactly
// these, so the summary the lab shows and the report the core builds cannot disagree.
struct calibrated_figures {
    std::optional<fitted_link> intra_node, inter_node;  // link_from_profile per scope
    // HBM bandwidth counts read + write: twice the device copy rate (BabelStream's Copy convention).
    std::optional<double> hbm_bandwidth_Bps;
    // The host link is only as fast as the slower of the two pinned copy directions (offload goes both ways).
    std::optional<double> host_bandwidth_Bps;
    std::vector<std::string> gemm_dtypes;  // dtypes with a fitted GEMM curve (flops_per_s_max > 0)
};

calibrated_figures figures_from_profile(const calibration_profile& p);

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
