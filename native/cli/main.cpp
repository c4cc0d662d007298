// tslab: the command-line face of the core. It only reads files, calls the core and prints.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "command.hpp"
#include "tslab/errors.hpp"

namespace tslab::cli {

const std::string* args::option(const std::string& key) const {
    for (const auto& [k, v] : options)
        if (k == key) return &v;
    return nullptr;
}

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

std::string read_input(const std::string& path) {
    std::stringstream ss;
    if (path == "-") {
        ss << std::cin.rdbuf();
        return ss.str();
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) throw input_error(path, "cannot open file");
    ss << f.rdbuf();
    return ss.str();
}

const std::string& need_file(const args& a, const char* what) {
    if (a.positional.empty()) throw input_error("arguments", a.command + " needs " + what);
    return a.positional.front();
}

}  // namespace tslab::cli

namespace {

using tslab::cli::args;

std::string usage() {
    std::string u = "usage: tslab <command> [args] [--format json|table]\n\ncommands:\n";
    for (const auto& c : tslab::cli::commands()) u += std::string("  ") + c.usage + "\n";
    u += "  --help    this text\n\nJSON inputs may be '-' for standard input. Errors name the JSON path and\n"
         "the reason, and exit with status 2.\n";
    return u;
}

args parse_args(int argc, char** argv) {
    args a;
    for (int i = 1; i < argc; ++i) {
        std::string v = argv[i];
        if (v.size() > 2 && v.rfind("--", 0) == 0) {
            std::string key = v.substr(2), value;
            const auto eq = key.find('=');
            if (eq != std::string::npos) value = key.substr(eq + 1), key = key.substr(0, eq);
            else if (i + 1 < argc) value = argv[++i];
            else throw tslab::input_error(v, "needs a value");
            if (key == "format") a.format = value;
            else a.options.emplace_back(key, value);
        } else if (a.command.empty()) {
            a.command = v;
        } else {
            a.positional.push_back(v);
        }
    }
    return a;
}

int dispatch(const args& a) {
    for (const auto& c : tslab::cli::commands())
        if (a.command == c.name) return c.run(a);
    throw tslab::input_error("command", "unknown command \"" + a.command + "\"; see tslab --help");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string first = argc > 1 ? argv[1] : "";
    if (argc < 2 || first == "--help" || first == "-h" || first == "help") {
        std::fputs(usage().c_str(), argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    try {
        return dispatch(parse_args(argc, argv));
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
