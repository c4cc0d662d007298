// CLI convenience: `cluster.calibration` may name a profile file; it is read and inlined before parsing.
#pragma once

#include <string>

#include "tslab/calibration.hpp"

namespace tslab::cli {

// Read and validate a profile file; errors read "FILE: collectives[2].alpha_s: reason".
calibration_profile read_profile(const std::string& path);

// Returns `scenario_text` with a string cluster.calibration replaced by the parsed file it names
// (relative paths resolve against the scenario file's folder). Unparseable text passes through
// unchanged so that the core reports the error with its path.
std::string inline_calibration_path(const std::string& scenario_text, const std::string& scenario_path);

}  // namespace tslab::cli
