// The embind facade for calibration profiles: validate one before use, and check it against a scenario.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/calibration_check.hpp"
#include "tslab/calibration_summary.hpp"

namespace {

std::string validate_profile(const std::string& profile_json) {
    return tslab::wasm::guarded([&] { return tslab::calibration_summary_json_text(profile_json); });
}

// scenario_json "" predicts each probe by the profile's own fits, else by that scenario's cluster.
std::string validation(const std::string& profile_json, const std::string& scenario_json) {
    return tslab::wasm::guarded([&] { return tslab::validation_json_text(profile_json, scenario_json); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_calibration) {
    emscripten::function("validateProfile", &validate_profile);
    emscripten::function("validation", &validation);
}
