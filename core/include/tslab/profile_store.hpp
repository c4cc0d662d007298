// Calibration profiles parsed once and kept by name; a scenario's `cluster.calibration: "NAME"`
// refers to one, so a large profile is neither re-sent nor re-parsed with every call.
#pragma once

#include <string>

#include "tslab/calibration.hpp"

namespace tslab {

// The most profiles kept at once (the lab keeps one, the CLI one per file named).
inline constexpr std::size_t max_stored_profiles = 16;

// Keeps `p` under `name`, replacing one of that name; input_error when the store is full.
void store_profile(const std::string& name, calibration_profile p);
// The profile kept under `name`, or nullptr.
const calibration_profile* stored_profile(const std::string& name);
// Forgets `name` (no-op when absent).
void drop_profile(const std::string& name);

}  // namespace tslab
