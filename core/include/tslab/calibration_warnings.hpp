// Sentences saying where a calibration profile does not describe the cluster it is applied to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "tslab/messages.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// Without a cluster: an incomplete profile (and why it stopped) and a CPU-backend profile.
// With one: also a GPU model that differs from the cluster's (the first model token of each
// name, e.g. "H100" in "NVIDIA H100 80GB HBM3" and "H100-SXM5-80GB"), a profile measured on
// fewer nodes than the cluster has (its inter-node fit then extrapolates, or is absent), and
// intra-node groups smaller than the cluster's gpus_per_node. `world` (0 = unknown) sizes the
// cluster when cluster.nodes is not set.
// As message ids (messages.hpp); calibration_warnings() is their English text.
std::vector<message> calibration_warning_messages(const calibration_profile& p, const cluster_spec* c, std::int64_t world = 0);
std::vector<std::string> calibration_warnings(const calibration_profile& p, const cluster_spec* c, std::int64_t world = 0);

// The model token of a device name ("H100", "A100", "B200", "MI300X"), upper case; "" when none.
std::string gpu_model_token(const std::string& name);

}  // namespace tslab
