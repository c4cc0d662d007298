// `tslab report` and `tslab presets`.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "calibration_path.hpp"
#include "command.hpp"
#include "tslab/calibration_warnings.hpp"
#include "tslab/presets.hpp"
#include "tslab/report.hpp"

namespace tslab::cli {
namespace {

command_action define_report(CLI::App& sub) {
    auto o = std::make_shared<file_and_format>();
    add_input(sub, o->path, "SCENARIO.json", "the tslab/scenario@1 file");
    add_format(sub, o->format, {"json", "table"});
    return [o] {
        const std::string text = load_calibration_path(read_input(o->path), o->path);
        const scenario s = parse_scenario_text(text);
        if (s.cluster.profile)
            for (const auto& w : calibration_warnings(*s.cluster.profile, &s.cluster, s.parallel.world())) std::cerr << "warning: " << w << "\n";
        if (o->format == "table")
            std::cout << report_table(build_report(parse_scenario_text(text)));
        else
            std::cout << report_json_text(text) << "\n";
    };
}

// The table lists the preset names by kind; the JSON carries every preset's fields.
void print_preset_names() {
    const std::pair<const char*, std::vector<std::string>> kinds[] = {
        {"models", model_preset_names()}, {"gpus", gpu_preset_names()}, {"clusters", cluster_preset_names()}};
    for (const auto& [kind, names] : kinds) {
        std::cout << kind << "\n";
        for (const auto& n : names) std::cout << "  " << n << "\n";
    }
}

command_action define_presets(CLI::App& sub) {
    auto format = std::make_shared<std::string>("json");
    add_format(sub, *format, {"json", "table"});
    return [format] {
        if (*format == "table")
            print_preset_names();
        else
            std::cout << presets_json_text() << "\n";
    };
}

const bool report_registered =
    register_command({"report", "the report of one scenario: memory, step time, communication (json|table)", define_report}) &&
    register_command({"presets", "built-in model, GPU and cluster presets (json; table: their names)", define_presets});

}  // namespace
}  // namespace tslab::cli
