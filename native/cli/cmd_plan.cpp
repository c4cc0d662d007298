// `tslab plan`: the best parallel plans of a scenario's model and cluster (core planner.hpp).
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "calibration_path.hpp"
#include "cli_parse.hpp"
#include "command.hpp"
#include "tslab/planner.hpp"

namespace tslab::cli {
namespace {

struct plan_args : file_and_format {
    std::int64_t top = 0, gpus = 0, max_candidates = 0, threads = 0;
    double max_seconds = 0;
    std::vector<std::string> fixed;
};

// A line on standard error about once a second while a long search runs.
void print_progress(const plan_progress& p, double elapsed_s) {
    std::cerr << "plan: " << p.groups_done << " of " << p.groups_total << " layouts, " << p.considered << " combinations considered, "
              << static_cast<std::int64_t>(elapsed_s) << " s\n";
}

// Only the options given go to the core, which checks their ranges ("options.top: 0 is out of range").
json plan_options(const plan_args& a, const CLI::App& sub) {
    json opts = json::object();
    if (sub.count("--top")) opts["top"] = a.top;
    if (sub.count("--gpus")) opts["gpus"] = a.gpus;
    if (sub.count("--max-candidates")) opts["max_candidates"] = a.max_candidates;
    if (sub.count("--max-seconds")) opts["max_seconds"] = a.max_seconds;
    if (sub.count("--threads")) opts["threads"] = a.threads;
    if (sub.count("--fix")) opts["fixed"] = a.fixed;
    return opts;
}

command_action define_plan(CLI::App& sub) {
    auto a = std::make_shared<plan_args>();
    add_input(sub, a->path, "SCENARIO.json", "the tslab/scenario@1 file (its model, cluster and training)");
    sub.add_option("--top", a->top, "how many plans to list (default 10)")->check(native::whole_number())->type_name("K");
    sub.add_option("--gpus", a->gpus, "GPUs to plan for (default: the scenario's world)")->check(native::whole_number())->type_name("N");
    sub.add_option("--max-candidates", a->max_candidates, "candidates evaluated before the search stops (default 100000000)")
        ->check(native::whole_number())
        ->type_name("N");
    sub.add_option("--max-seconds", a->max_seconds, "wall-clock budget; a longer search stops with a partial result that says so (default 60)")
        ->type_name("S");
    sub.add_option("--threads", a->threads, "threads the search is split over (default 0: one per hardware thread; the result is the same)")
        ->check(native::whole_number())
        ->type_name("N");
    sub.add_option("--fix", a->fixed,
                   "knobs held at the scenario's values instead of searched, e.g. zero,sp (options.fixed: "
                   "zero, recompute, sp, tp_overlap, offload, cp)")
        ->delimiter(',')
        ->type_name("KNOB,...");
    add_format(sub, a->format, {"json", "table"});
    return [a, &sub] {
        const std::string text = load_calibration_path(read_input(a->path), a->path);
        const json opts = plan_options(*a, sub);
        const plan_result r = run_plan(parse_scenario_text(text), parse_plan_options(opts), print_progress);
        if (a->format == "table")
            std::cout << plan_table(r);
        else
            std::cout << plan_to_json(r).dump(2) << "\n";
    };
}

const bool plan_registered = register_command(
    {"plan", "search dp/tp/pp/vpp/ep/cp/zero/micro-batch/recompute/schedule for the fastest plans that fit (json|table)", define_plan});

}  // namespace
}  // namespace tslab::cli
