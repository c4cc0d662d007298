// The measured figures a calibration profile puts in place of a cluster's datasheet ones: below the
// scenario that applies them (scenario.cpp) and the summary that shows them (calibration_summary.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"

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

}  // namespace tslab
