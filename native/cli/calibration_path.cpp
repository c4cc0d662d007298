// Inlining a calibration profile named by path in a scenario's cluster.calibration.
#include "calibration_path.hpp"

#include <filesystem>

#include "command.hpp"
#include "tslab/calibration.hpp"
#include "tslab/errors.hpp"

namespace tslab::cli {

calibration_profile read_profile(const std::string& path) {
    const std::string text = read_input(path);
    try {
        return parse_calibration_text(text, "");
    } catch (const input_error& e) {
        throw input_error(e.path().empty() ? path : path + ": " + e.path(), e.reason());
    }
}

std::string inline_calibration_path(const std::string& scenario_text, const std::string& scenario_path) {
    json doc = json::parse(scenario_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return scenario_text;
    auto cluster = doc.find("cluster");
    if (cluster == doc.end() || !cluster->is_object()) return scenario_text;
    auto cal = cluster->find("calibration");
    if (cal == cluster->end() || !cal->is_string()) return scenario_text;
    std::filesystem::path file = cal->get<std::string>();
    if (file.is_relative() && scenario_path != "-") file = std::filesystem::path(scenario_path).parent_path() / file;
    // Validate here so that a bad file is named as such, then inline the object.
    *cal = calibration_to_json(read_profile(file.string()));
    return doc.dump();
}

}  // namespace tslab::cli
