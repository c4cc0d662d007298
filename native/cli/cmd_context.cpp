// `tslab context`: L7 methods side by side for one scenario (context_methods.hpp), with the causal
// balance of its cp group.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/context_methods.hpp"

namespace tslab::cli {
namespace {

command_action define_context(CLI::App& sub) {
    auto o = std::make_shared<file_and_format>();
    add_input(sub, o->path, "SCENARIO.json", "the scenario (tslab/scenario@1)");
    add_format(sub, o->format, {"json"});
    return [o] { std::cout << context_json_text(read_input(o->path)) << "\n"; };
}

const bool context_registered =
    register_command({"context", "L7: SP, Ulysses, Ring, USP and all-gather CP side by side, with the causal balance (json)", define_context});

}  // namespace
}  // namespace tslab::cli
