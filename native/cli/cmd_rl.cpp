// `tslab rl`: L9's checkpoint policy, goodput against GPU count and one RL iteration (rl.hpp says
// why this is a command of its own rather than part of the report).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "tslab/rl.hpp"

namespace tslab::cli {
namespace {

command_action define_rl(CLI::App& sub) {
    auto o = std::make_shared<file_and_format>();
    add_input(sub, o->path, "SPEC.json", "the RL spec ({\"scenario\": ..., \"rl\": ..., \"gpus\": [...]})");
    add_format(sub, o->format, {"json"});
    return [o] { std::cout << rl_json_text(read_input(o->path)) << "\n"; };
}

const bool rl_registered =
    register_command({"rl", "L9: checkpoint goodput against GPU count and one RL iteration, train/reshard/rollout/reward (json)", define_rl});

}  // namespace
}  // namespace tslab::cli
