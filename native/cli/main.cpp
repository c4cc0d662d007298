// tslab: the command-line face of the core. It only reads files, calls the core and prints.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tslab/errors.hpp"
#include "tslab/report.hpp"

namespace {

const char* usage =
    "usage: tslab <command> [args]\n"
    "\n"
    "commands:\n"
    "  report SCENARIO.json [--format json|table]   memory ledger and report of one scenario\n"
    "  presets                                      list built-in model, GPU and cluster presets (JSON)\n"
    "  --help                                       this text\n"
    "\n"
    "SCENARIO.json is a tslab/scenario@1 object; '-' reads standard input.\n"
    "Errors name the JSON path and the reason and exit with status 2.\n";

std::string read_input(const std::string& path) {
    if (path == "-") {
        std::stringstream ss;
        ss << std::cin.rdbuf();
        return ss.str();
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) throw tslab::input_error(path, "cannot open file");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

struct args {
    std::string command, file, format = "json";
};

args parse_args(int argc, char** argv) {
    args a;
    std::vector<std::string> v(argv + 1, argv + argc);
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] == "--format" && i + 1 < v.size()) a.format = v[++i];
        else if (v[i].rfind("--format=", 0) == 0) a.format = v[i].substr(9);
        else if (a.command.empty()) a.command = v[i];
        else if (a.file.empty()) a.file = v[i];
        else throw tslab::input_error("arguments", "unexpected argument \"" + v[i] + "\"");
    }
    if (a.format != "json" && a.format != "table")
        throw tslab::input_error("--format", "expected json or table, got \"" + a.format + "\"");
    return a;
}

int run(const args& a) {
    if (a.command == "presets") {
        std::cout << tslab::presets_json_text() << "\n";
        return 0;
    }
    if (a.command == "report") {
        if (a.file.empty()) throw tslab::input_error("arguments", "report needs a SCENARIO.json path (or '-')");
        const std::string text = read_input(a.file);
        if (a.format == "table")
            std::cout << tslab::report_table(tslab::build_report(tslab::parse_scenario_text(text)));
        else
            std::cout << tslab::report_json_text(text) << "\n";
        return 0;
    }
    throw tslab::input_error("command", "unknown command \"" + a.command + "\"; see tslab --help");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
        std::fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    try {
        return run(parse_args(argc, argv));
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
