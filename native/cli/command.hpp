// Subcommand registry of the tslab CLI: each cmd_*.cpp registers itself with the CLI11 options it
// takes; main.cpp builds the command line from the registry, parses it and runs the one given.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tslab::cli {

// Runs a parsed command: prints its result, throws input_error for bad input.
using command_action = std::function<void()>;

struct command_info {
    const char* name;
    const char* summary;  // its line in `tslab --help`
    command_action (*define)(CLI::App& sub);  // adds its arguments; returns the action bound to them
};

bool register_command(const command_info& c);
const std::vector<command_info>& commands();

// The input file and the output format most commands take.
struct file_and_format {
    std::string path;
    std::string format = "json";
};

// The required input file positional, named e.g. "SCENARIO.json"; "-" reads standard input.
void add_input(CLI::App& sub, std::string& path, const char* name, const char* what);
// -f/--format, "json" by default, accepting only `allowed` (the first is the default).
void add_format(CLI::App& sub, std::string& format, const std::vector<std::string>& allowed);

// Whole file (or standard input for "-"); throws input_error naming the path.
std::string read_input(const std::string& path);

}  // namespace tslab::cli
