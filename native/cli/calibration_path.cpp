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

// The profile's own message with the excerpt cut from its parameters (it ends the parser's detail).
message without_excerpt(const input_error& e) {
    message m = e.msg();
    for (auto& a : m.args) a.second = without_excerpt(a.second);
    if (english(m) == without_excerpt(e.reason())) return m;
    return msg("cli.profile_reason", {{"reason", without_excerpt(e.reason())}});
}

// The text of a profile file: only a regular file, no larger than the input limit.
std::string read_profile_file(const std::string& path) {
    if (path == "-") return read_input(path);
    if (path.empty()) throw input_error("$", msg("cli.empty_file_name"));
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) throw input_error(path, msg("cli.no_such_file"));
    if (!std::filesystem::is_regular_file(st)) throw input_error(path, msg("cli.not_regular_file"));
    const auto size = std::filesystem::file_size(path, ec);
    const std::size_t limit = input_limits().max_bytes;
    if (!ec && size > limit)
        throw input_error(path, msg("cli.file_too_large", {{"size", fmt::format("{}", size)}, {"limit", fmt::format("{}", limit)}}));
    return read_input(path);
}

}  // namespace

calibration_profile read_profile(const std::string& path) {
    const std::string text = read_profile_file(path);
    try {
        return parse_calibration_text(text, "");
    } catch (const input_error& e) {
        throw input_error(e.path() == "$" ? path : path + ": " + e.path(), without_excerpt(e));
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
    if (name.empty()) throw input_error("cluster.calibration", msg("cli.empty_profile_name"));
    std::filesystem::path file = name;
    if (file.is_relative() && scenario_path != "-") file = std::filesystem::path(scenario_path).parent_path() / file;
    try {
        store_profile(name, read_profile(file.string()));
    } catch (const input_error& e) {
        // The file's own path and reason: {reason} stays the English text of the inner message.
        throw input_error("cluster.calibration", msg("cli.in_profile_file", {{"path", e.path()}, {"reason", e.reason()}}));
    }
    return scenario_text;
}

}  // namespace tslab::cli
