// Value checks and parse-error wording shared by the tslab and tslab-calibrate command lines.
#include "cli_parse.hpp"

#include <charconv>

#include <fmt/format.h>

namespace tslab::native {

namespace {

// The message of the last failed one_of / whole_number check: CLI11 carries only its English text,
// so parse_error() finds the message again by that text.
thread_local message last_check;

std::string failed(message m) {
    last_check = std::move(m);
    return english(last_check);
}

std::vector<const CLI::App*> all_subcommands(const CLI::App& root) {
    return root.get_subcommands([](const CLI::App*) { return true; });
}

// "a", "a or b", "a, b or c".
std::string alternatives(const std::vector<std::string>& words) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return out;
}

// The parsed subcommand the error belongs to (the deepest one given), else the root.
const CLI::App& command_of(const CLI::App& root) {
    const CLI::App* app = &root;
    while (!app->get_subcommands().empty()) app = app->get_subcommands().front();
    return *app;
}

std::string full_name(const CLI::App& app) {
    const CLI::App* parent = app.get_parent();
    return parent ? full_name(*parent) + " " + app.get_name() : app.get_name();
}

// The other subcommands of `root` that know `flag`: "plan" for `tslab report s.json --top 3`.
std::vector<std::string> owners_of(const CLI::App& root, const std::string& flag) {
    std::vector<std::string> owners;
    for (const CLI::App* sub : all_subcommands(root))
        if (sub->get_option_no_throw(flag) != nullptr) owners.push_back(sub->get_name());
    return owners;
}

input_error extras_error(const CLI::App& root, const CLI::App& app) {
    const std::vector<std::string> left = app.remaining();
    const std::string first = left.empty() ? std::string("arguments") : left.front();
    message_args args = {{"command", app.get_name()}, {"full", full_name(app)}};
    if (first.size() < 2 || first[0] != '-') return input_error(first, msg("cli.unexpected_argument", std::move(args)));
    const std::string flag = first.substr(0, first.find('='));
    const std::vector<std::string> owners = owners_of(root, flag);
    if (owners.empty()) return input_error(flag, msg("cli.unknown_option", std::move(args)));
    args.emplace_back("owners", alternatives(owners));
    return input_error(flag, msg("cli.unknown_option_owners", std::move(args)));
}

// No command given, or a word that names none: "frobnicate: unknown command; expected one of ...".
input_error command_error(const CLI::App& root) {
    std::vector<std::string> names;
    for (const CLI::App* sub : all_subcommands(root)) names.push_back(sub->get_name());
    const std::vector<std::string> left = root.remaining();
    message_args args = {{"commands", alternatives(names)}, {"root", root.get_name()}};
    if (left.empty() || left.front().empty() || left.front()[0] == '-') return input_error("command", msg("cli.command_missing", std::move(args)));
    const std::string near = closest_name(left.front(), names);
    if (near.empty()) return input_error(left.front(), msg("cli.unknown_command", std::move(args)));
    args.emplace_back("near", near);
    return input_error(left.front(), msg("cli.unknown_command_near", std::move(args)));
}

// The app whose name an ExtrasError carries: the root or one of its subcommands.
const CLI::App& app_named(const CLI::App& root, const std::string& name) {
    for (const CLI::App* sub : all_subcommands(root))
        if (sub->get_name() == name) return *sub;
    return root;
}

}  // namespace

CLI::Validator one_of(const std::vector<std::string>& allowed) {
    auto check = [allowed](std::string& v) -> std::string {
        for (const auto& a : allowed)
            if (v == a) return {};
        return failed(msg("cli.expected_one_of", {{"allowed", alternatives(allowed)}, {"value", v}}));
    };
    return CLI::Validator(check, "");
}

CLI::Validator whole_number(std::int64_t lo, std::int64_t hi) {
    auto check = [lo, hi](std::string& v) -> std::string {
        std::int64_t x = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        const auto out_of_range = [&](std::string value) {
            return failed(msg("cli.out_of_range", {{"value", std::move(value)}, {"lo", fmt::format("{}", lo)}, {"hi", fmt::format("{}", hi)}}));
        };
        if (ec == std::errc::result_out_of_range) return out_of_range(v);
        if (ec != std::errc() || end != v.data() + v.size() || v.empty()) return failed(msg("cli.expected_whole_number", {{"value", v}}));
        if (x < lo || x > hi) return out_of_range(fmt::format("{}", x));
        return {};
    };
    return CLI::Validator(check, "");
}

input_error parse_error(const CLI::App& root, const CLI::ParseError& e) {
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) return extras_error(root, app_named(root, e.get_name()));
    const std::string what = e.what();
    // ValidationError reads "--format: expected json or table, got \"yaml\"": split it there.
    const auto colon = what.find(": ");
    if (dynamic_cast<const CLI::ValidationError*>(&e) && colon != std::string::npos && what[0] == '-') {
        const std::string detail = what.substr(colon + 2);
        if (!last_check.id.empty() && english(last_check) == detail) return input_error(what.substr(0, colon), last_check);
        return input_error(what.substr(0, colon), msg("cli.invalid_value", {{"detail", detail}}));
    }
    const CLI::App& app = command_of(root);
    // ArgumentMismatch reads "--format: 1 required json|table missing".
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && colon != std::string::npos && what[0] == '-')
        return input_error(what.substr(0, colon), msg("cli.needs_value", {{"full", full_name(app)}}));
    if (&app == &root && dynamic_cast<const CLI::RequiredError*>(&e) && !all_subcommands(root).empty()) return command_error(root);
    return input_error(app.get_name(), msg("cli.parse_error", {{"detail", what}, {"full", full_name(app)}}));
}

}  // namespace tslab::native
