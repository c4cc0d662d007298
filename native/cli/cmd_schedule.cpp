// `tslab schedule`: generate, validate and simulate a pipeline schedule from a SPEC file.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/schedule_io.hpp"

namespace tslab::cli {
namespace {

command_action define_schedule(CLI::App& sub) {
    auto o = std::make_shared<file_and_format>();
    add_input(sub, o->path, "SPEC.json", "the schedule spec");
    add_format(sub, o->format, {"json", "table", "trace"});
    return [o] {
        const std::string text = read_input(o->path);
        if (o->format == "table")
            std::cout << schedule_table_text(text);
        else if (o->format == "trace")
            std::cout << schedule_trace_text(text) << "\n";
        else
            std::cout << schedule_json_text(text) << "\n";
    };
}

const bool schedule_registered =
    register_command({"schedule", "simulate a pipeline schedule (json|table|trace; trace opens in Perfetto)", define_schedule});

}  // namespace
}  // namespace tslab::cli
