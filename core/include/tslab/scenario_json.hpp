// Writing a validated scenario back as a complete tslab/scenario@1 object (model and cluster as
// given, every parallel and training field explicit), so that parsing it gives the same scenario.
#pragma once

#include "tslab/scenario.hpp"

namespace tslab {

// The planner attaches this to each plan entry: report(scenario_to_json(s)) equals report(s).
// The cluster keeps its calibration profile (cluster.calibration), so a calibrated plan is
// reported with the same measured links and GEMM curves. When the world no longer matches a given
// cluster.nodes (a plan for another GPU count), nodes is written as the plan needs it.
json scenario_to_json(const scenario& s);

}  // namespace tslab
