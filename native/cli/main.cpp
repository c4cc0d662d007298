// tslab: the command-line face of the core. It only parses the command line (CLI11), reads
// files, calls the core and prints.
#include <algorithm>
#include <cassert>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli_parse.hpp"
#include "command.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "version.hpp"

namespace tslab::cli {

namespace {
std::vector<command_info>& registry() {
    static std::vector<command_info> all;
    return all;
}
}  // namespace

bool register_command(const command_info& c) {
    registry().push_back(c);
    return true;
}

const std::vector<command_info>& commands() { return registry(); }

void add_input(CLI::App& sub, std::string& path, const char* name, const char* what) {
    sub.add_option(name, path, std::string(what) + ", or - for standard input")->required()->type_name("");
}

void add_format(CLI::App& sub, std::string& format, const std::vector<std::string>& allowed) {
    std::string names;
    for (const auto& a : allowed) names += (names.empty() ? "" : "|") + a;
    sub.add_option("-f,--format", format, "output format (default " + allowed.front() + ")")->check(native::one_of(allowed))->type_name(names);
}

namespace {
// At most the input limit plus one byte of `in`: a larger input (or /dev/zero) stops right there.
std::string read_bounded(std::istream& in, const std::string& path) {
    const std::size_t limit = input_limits().max_bytes;
    std::string text;
    char buf[1 << 16];
    while (in && text.size() <= limit) {
        in.read(buf, sizeof buf);
        text.append(buf, static_cast<std::size_t>(in.gcount()));
    }
    if (text.size() > limit) throw input_error(path, msg("cli.input_too_large", {{"limit", fmt::format("{}", limit)}}));
    return text;
}
}  // namespace

std::string read_input(const std::string& path) {
    if (path == "-") return read_bounded(std::cin, "standard input");
    if (path.empty()) throw input_error("$", msg("cli.empty_file_name"));
    std::ifstream f(path, std::ios::binary);
    if (!f) throw input_error(path, msg("cli.cannot_open"));
    return read_bounded(f, path);
}

}  // namespace tslab::cli

namespace {

using namespace tslab;

const char* const footer =
    "JSON inputs may be '-' for standard input. Errors name the JSON path (or the option) and the\n"
    "reason.\n\n"
    "Exit status: 0 success; 2 bad input (a file, JSON path, option or value); 70 internal error\n"
    "(a bug: please report it with the command line).";

struct command_line {
    CLI::App app{"tslab: one LLM training step, modelled (memory, time, communication, pipeline).", "tslab"};
    std::vector<std::pair<CLI::App*, cli::command_action>> actions;
};

// Every registered command as a subcommand with --help and --version.
std::unique_ptr<command_line> build_command_line() {
    auto cl = std::make_unique<command_line>();
    const std::string version = native::version_line("tslab");
    cl->app.footer(footer);
    cl->app.set_version_flag("--version", version, "print the version and git revision, then exit");
    cl->app.require_subcommand(1);
    for (const auto& c : cli::commands()) {
        CLI::App* sub = cl->app.add_subcommand(c.name, c.summary);
        sub->set_version_flag("--version", version, "print the version and git revision, then exit");
        sub->add_option("--max-input-bytes", input_limits().max_bytes,
                        "largest JSON input read, in bytes (default 4194304); nesting depth 64 and 1024 fields per object are fixed")
            ->check(CLI::Range(std::size_t{2}, std::size_t{1} << 30))
            ->type_name("N");
        cl->actions.emplace_back(sub, c.define(*sub));
    }
    return cl;
}

// `tslab help [COMMAND]` reads as `tslab [COMMAND] --help`.
std::vector<std::string> arguments(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "help") args.erase(args.begin()), args.emplace_back("--help");
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    return args;
}

int run_parsed(const command_line& cl) {
    for (const auto& [sub, action] : cl.actions)
        if (sub->parsed()) return action(), native::exit_ok;
    assert(false && "require_subcommand(1) lets no parse through without a command");
    return native::exit_internal;
}

}  // namespace

int main(int argc, char** argv) {
    const auto cl = build_command_line();
    if (argc < 2) return std::cerr << cl->app.help(), native::exit_input;
    try {
        std::vector<std::string> args = arguments(argc, argv);
        cl->app.parse(args);
        return run_parsed(*cl);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return cl->app.exit(e);  // --help or --version, on standard output
        std::cerr << "error: " << native::parse_error(cl->app, e).what() << "\n";
        return native::exit_input;
    } catch (const input_error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return native::exit_input;
    } catch (const std::exception& e) {
        std::cerr << "internal error: " << e.what() << "\n";
        return native::exit_internal;
    }
}
