// `tslab schedule`: generate, validate and simulate a pipeline schedule from a SPEC file.
#include <iostream>

#include "command.hpp"
#include "tslab/errors.hpp"
#include "tslab/schedule_io.hpp"

namespace tslab::cli {
namespace {

int run_schedule_cmd(const args& a) {
    const std::string text = read_input(need_file(a, "a SPEC.json path (or '-')"));
    if (a.format == "json") std::cout << schedule_json_text(text) << "\n";
    else if (a.format == "table") std::cout << schedule_table_text(text);
    else if (a.format == "trace") std::cout << schedule_trace_text(text) << "\n";
    else throw input_error("--format", "expected json, table or trace, got \"" + a.format + "\"");
    return 0;
}

const bool registered = register_command(
    {"schedule", "schedule SPEC.json [--format json|table|trace]   simulate a pipeline schedule (trace: Perfetto)", run_schedule_cmd});

}  // namespace
}  // namespace tslab::cli
