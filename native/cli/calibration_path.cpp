// Loading a calibration profile named by path in a scenario's cluster.calibration: a regular,
// size-limited file, parsed once and kept under its name for the core (profile_store.hpp).
#include "calibration_path.hpp"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "command.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/profile_store.hpp"

namespace tslab::cli {

namespace {

// nlohmann's "; last read: '...'" quotes the file's bytes: a wrong file must not be echoed.
std::string without_excerpt(std::string reason) {
    const auto at = reason.find("; last read:");
    if (at != std::string::npos) reason.erase(at);
    return reason;
}

// The text of a profile file: only a regular file, no larger than the input limit.
std::string read_profile_file(const std::string& path) {
    if (path == "-") return read_input(path);
    if (path.empty()) throw input_error("$", "an empty file name");
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) throw input_error(path, "no such file");
    if (!std::filesystem::is_regular_file(st)) throw input_error(path, "not a regular file");
    const auto size = std::filesystem::file_size(path, ec);
    const std::size_t limit = input_limits().max_bytes;
    if (!ec && size > limit)
        throw input_error(path, fmt::format("{} bytes exceed the input limit of {} bytes (--max-input-bytes)", size, limit));
    return read_input(path);
}

}  // namespace

calibration_profile read_profile(const std::string& path) {
    const std::string text = read_profile_file(path);
    try {
        return parse_calibration_text(text, "");
    } catch (const input_error& e) {
        throw input_error(e.path() == "$" ? path : path + ": " + e.path(), without_excerpt(e.reason()));
    }
}

std::string load_calibration_path(std::string scenario_text, const std::string& scenario_path) {
    json doc;
    try {
        doc = parse_json(scenario_text);
    } catch (const input_error&) {
        return scenario_text;  // the core names the problem when it parses the scenario
    }
    if (!doc.is_object()) return scenario_text;
    auto cluster = doc.find("cluster");
    if (cluster == doc.end() || !cluster->is_object()) return scenario_text;
    auto cal = cluster->find("calibration");
    if (cal == cluster->end() || !cal->is_string()) return scenario_text;
    const std::string name = cal->get<std::string>();
    if (name.empty()) throw input_error("cluster.calibration", "an empty file name; give the path of a tslab/calibration@1 file");
    std::filesystem::path file = name;
    if (file.is_relative() && scenario_path != "-") file = std::filesystem::path(scenario_path).parent_path() / file;
    try {
        store_profile(name, read_profile(file.string()));
    } catch (const input_error& e) {
        throw input_error("cluster.calibration", e.what());
    }
    return scenario_text;
}

}  // namespace tslab::cli
