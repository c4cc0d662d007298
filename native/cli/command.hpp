// Subcommand registry of the tslab CLI: each cmd_*.cpp registers itself, main.cpp dispatches.
#pragma once

#include <string>
#include <vector>

namespace tslab::cli {

struct args {
    std::string command;
    std::vector<std::string> positional;   // after the command name
    std::string format = "json";
    std::vector<std::pair<std::string, std::string>> options;  // other --key value pairs
    const std::string* option(const std::string& key) const;
};

using command_fn = int (*)(const args&);

struct command_info {
    const char* name;
    const char* usage;  // one line: "report SCENARIO.json [--format json|table]   what it does"
    command_fn run;
};

bool register_command(const command_info& c);
const std::vector<command_info>& commands();

// Whole file (or standard input for "-"); throws input_error naming the path.
std::string read_input(const std::string& path);
// The first positional argument, or an input_error saying what `command` needs.
const std::string& need_file(const args& a, const char* what);

}  // namespace tslab::cli
