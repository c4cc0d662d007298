// The process-wide (per wasm module) store of parsed calibration profiles.
#include "tslab/profile_store.hpp"

#include <map>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {
std::map<std::string, calibration_profile>& store() {
    static std::map<std::string, calibration_profile> profiles;
    return profiles;
}
}  // namespace

void store_profile(const std::string& name, calibration_profile p) {
    auto& s = store();
    if (s.size() >= max_stored_profiles && s.find(name) == s.end())
        throw input_error(
            "cluster.calibration",
            msg("calibration.too_many_profiles", {{"count", fmt::format("{}", s.size())}, {"limit", fmt::format("{}", max_stored_profiles)}}));
    s.insert_or_assign(name, std::move(p));
}

const calibration_profile* stored_profile(const std::string& name) {
    const auto it = store().find(name);
    return it == store().end() ? nullptr : &it->second;
}

void drop_profile(const std::string& name) { store().erase(name); }

}  // namespace tslab
