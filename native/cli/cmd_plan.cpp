// `tslab plan`: the best parallel plans of a scenario's model and cluster (core planner.hpp).
#include <cstdint>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "calibration_path.hpp"
#include "cli_parse.hpp"
#include "command.hpp"
#include "tslab/planner.hpp"

namespace tslab::cli {
namespace {

struct plan_args : file_and_format {
    std::int64_t top = 0, gpus = 0, max_candidates = 0;
};

// Only the options given go to the core, which checks their ranges ("options.top: 0 is out of range").
json plan_options(const plan_args& a, const CLI::App& sub) {
    json opts = json::object();
    if (sub.count("--top")) opts["top"] = a.top;
    if (sub.count("--gpus")) opts["gpus"] = a.gpus;
    if (sub.count("--max-candidates")) opts["max_candidates"] = a.max_candidates;
    return opts;
}

command_action define_plan(CLI::App& sub) {
    auto a = std::make_shared<plan_args>();
    add_input(sub, a->path, "SCENARIO.json", "the tslab/scenario@1 file (its model, cluster and training)");
    sub.add_option("--top", a->top, "how many plans to list (default 10)")->check(native::whole_number())->type_name("K");
    sub.add_option("--gpus", a->gpus, "GPUs to plan for (default: the scenario's world)")->check(native::whole_number())->type_name("N");
    sub.add_option("--max-candidates", a->max_candidates, "candidates evaluated before the search stops (default 20000000)")->check(native::whole_number())->type_name("N");
    add_format(sub, a->format, {"json", "table"});
    return [a, &sub] {
        const std::string text = inline_calibration_path(read_input(a->path), a->path);
        const json opts = plan_options(*a, sub);
        if (a->format == "table") std::cout << plan_table(run_plan(parse_scenario_text(text), parse_plan_options(opts)));
        else std::cout << plan_json_text(text, opts.dump()) << "\n";
    };
}

const bool registered = register_command(
    {"plan", "search dp/tp/pp/vpp/ep/cp/zero/micro-batch/recompute/schedule for the fastest plans that fit (json|table)",
     define_plan});

}  // namespace
}  // namespace tslab::cli
