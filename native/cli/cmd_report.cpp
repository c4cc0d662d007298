// `tslab report` and `tslab presets`.
#include <iostream>

#include "calibration_path.hpp"
#include "command.hpp"
#include "tslab/errors.hpp"
#include "tslab/report.hpp"

namespace tslab::cli {
namespace {

int run_report(const args& a) {
    const std::string& path = need_file(a, "a SCENARIO.json path (or '-')");
    const std::string text = inline_calibration_path(read_input(path), path);
    if (a.format == "table") std::cout << report_table(build_report(parse_scenario_text(text)));
    else if (a.format == "json") std::cout << report_json_text(text) << "\n";
    else throw input_error("--format", "expected json or table, got \"" + a.format + "\"");
    return 0;
}

int run_presets(const args&) {
    std::cout << presets_json_text() << "\n";
    return 0;
}

const bool registered =
    register_command({"report", "report SCENARIO.json [--format json|table]   the report of one scenario", run_report}) &&
    register_command({"presets", "presets                                     built-in model, GPU and cluster presets (JSON)", run_presets});

}  // namespace
}  // namespace tslab::cli
