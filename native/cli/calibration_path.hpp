// CLI convenience: `cluster.calibration` may name a profile file; it is read, checked and loaded
// under that name (profile_store.hpp) before the core parses the scenario.
#pragma once

#include <string>

#include "tslab/calibration.hpp"

namespace tslab::cli {

// Read and validate a profile file (regular, within the input limit); errors read
// "FILE: collectives[2].alpha_s: reason" and never quote the file's bytes.
calibration_profile read_profile(const std::string& path);

// When the scenario's cluster.calibration is a string, loads the file it names (relative paths
// resolve against the scenario file's folder) under that string; errors read
// "cluster.calibration: FILE: reason". Unparseable text is left to the core to report.
// Returns the scenario text unchanged.
std::string load_calibration_path(std::string scenario_text, const std::string& scenario_path);

}  // namespace tslab::cli
