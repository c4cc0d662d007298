// `tslab plan`: the best parallel plans of a scenario's model and cluster (core planner.hpp).
#include <charconv>
#include <iostream>

#include "calibration_path.hpp"
#include "command.hpp"
#include "tslab/errors.hpp"
#include "tslab/planner.hpp"

namespace tslab::cli {
namespace {

std::int64_t whole_number(const std::string& key, const std::string& v) {
    std::int64_t out = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc() || end != v.data() + v.size()) throw input_error("--" + key, "expected a whole number, got \"" + v + "\"");
    return out;
}

int run_plan_command(const args& a) {
    const std::string& path = need_file(a, "a SCENARIO.json path (or '-')");
    const std::string text = inline_calibration_path(read_input(path), path);
    json opts = json::object();
    for (const auto& [k, v] : a.options) {
        if (k == "top") opts["top"] = whole_number(k, v);
        else if (k == "gpus") opts["gpus"] = whole_number(k, v);
        else if (k == "max-candidates") opts["max_candidates"] = whole_number(k, v);
        else throw input_error("--" + k, "unknown option for plan; expected --top, --gpus, --max-candidates or --format");
    }
    if (a.format == "json") std::cout << plan_json_text(text, opts.dump()) << "\n";
    else if (a.format == "table") std::cout << plan_table(run_plan(parse_scenario_text(text), parse_plan_options(opts)));
    else throw input_error("--format", "expected json or table, got \"" + a.format + "\"");
    return 0;
}

const bool registered = register_command(
    {"plan", "plan SCENARIO.json [--top K] [--gpus N] [--max-candidates N]   search dp/tp/pp/vpp/ep/cp/zero/mb/recompute/schedule",
     run_plan_command});

}  // namespace
}  // namespace tslab::cli
