// The embind facade for calibration profiles: validate one before use, and check it against a scenario.
#include <emscripten/bind.h>

#include "guarded.hpp"
#include "tslab/calibration_check.hpp"
#include "tslab/calibration_summary.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/profile_store.hpp"
#include "tslab/scenario.hpp"

namespace {

tslab::wasm::outcome validate_profile(const std::string& profile_json) {
    return tslab::wasm::guarded([&] { return tslab::calibration_summary_json_text(profile_json); });
}

// scenario_json "" predicts each probe by the profile's own fits, else by that scenario's cluster.
tslab::wasm::outcome validation(const std::string& profile_json, const std::string& scenario_json) {
    return tslab::wasm::guarded([&] { return tslab::validation_json_text(profile_json, scenario_json); });
}

// The same for a profile kept by loadProfile(name, ...): the profile text is not sent again.
tslab::wasm::outcome loaded_validation(const std::string& name, const std::string& scenario_json) {
    return tslab::wasm::guarded([&] {
        const tslab::calibration_profile* p = tslab::stored_profile(name);
        if (!p)
            throw tslab::input_error("cluster.calibration", tslab::msg("calibration.profile_not_loaded", {{"name", tslab::utf8_excerpt(name, 80)}}));
        if (scenario_json.empty()) return tslab::check_to_json(tslab::check_profile(*p, nullptr)).dump(2);
        const tslab::scenario s = tslab::parse_scenario_text(scenario_json);
        return tslab::check_to_json(tslab::check_profile(*p, &s.cluster)).dump(2);
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_calibration) {
    emscripten::function("loadedValidation", &loaded_validation);
    emscripten::function("validateProfile", &validate_profile);
    emscripten::function("validation", &validation);
}
