// The embind facade of the planner. Two ways in:
//   plan(scenarioJson, optionsJson) -> tslab/plan@1 JSON text, the whole search in one call
//     (byte-identical to `tslab plan --format json` apart from elapsed_s);
//   a sliced search for a Web Worker, so the page can show progress and cancel:
//     planStart(scenarioJson, optionsJson) -> progress JSON (validates both; replaces any search)
//     planStep(budget)  -> progress JSON after at least `budget` more combinations considered
//                          (whole layouts; 50000 is ~10 ms in wasm), {"done": true} once over
//     planResult()      -> tslab/plan@1 JSON of what was searched so far (partial if not done)
//     planCancel()      -> drops the search; a later planStep/planResult throws an Error
//   Progress: { "considered", "evaluated", "fitting", "layouts_searched", "layouts_total", "done", "capped" }.
//   A Worker loops planStep until done, posting each progress object, and answers a cancel
//   message by calling planCancel (or the page simply terminates the Worker).
//   the search in parts, one per Worker, merged in one of them (planner.hpp part_json):
//     planPartStart(scenarioJson, optionsJson, part, parts) -> progress JSON (then planStep as above)
//     planPartState()   -> tslab/plan-part@1 JSON of this part once it is done
//     planMerge(scenarioJson, optionsJson, partsJson) -> tslab/plan@1 JSON of the parts merged
//                          (partsJson: the parts' states as an array in part order)
// One search per module instance (one per Worker). optionsJson: { "top", "gpus", "max_candidates",
// "simulate_ops", "max_seconds", "fixed" }, "" for the defaults.
#include <emscripten/bind.h>

#include <memory>

#include <fmt/format.h>

#include "guarded.hpp"
#include "tslab/errors.hpp"
#include "tslab/planner.hpp"

namespace {

std::unique_ptr<tslab::plan_search> current;

tslab::plan_search& active() {
    if (!current) throw tslab::input_error("plan", tslab::msg("plan.no_search"));
    return *current;
}

tslab::wasm::outcome plan(const std::string& scenario_json, const std::string& options_json) {
    return tslab::wasm::guarded([&] { return tslab::plan_json_text(scenario_json, options_json); });
}

tslab::wasm::outcome plan_start(const std::string& scenario_json, const std::string& options_json) {
    return tslab::wasm::guarded([&] {
        current.reset();
        const tslab::plan_options o = tslab::parse_plan_options_text(options_json);
        const tslab::scenario s = tslab::parse_scenario_text(scenario_json);
        tslab::check_plan_gpus(s, o);
        current = std::make_unique<tslab::plan_search>(s, o);
        return tslab::plan_progress_json(current->progress()).dump();
    });
}

// A whole number in [lo, hi] from JavaScript (NaN, ±Infinity and fractions are errors at `name`).
int whole(double v, const char* name, int lo, int hi) {
    if (!(v >= lo && v <= hi) || v != static_cast<double>(static_cast<int>(v)))
        throw tslab::input_error(
            name, tslab::msg("input.out_of_range", {{"value", fmt::format("{}", v)}, {"lo", std::to_string(lo)}, {"hi", std::to_string(hi)}}));
    return static_cast<int>(v);
}

tslab::wasm::outcome plan_part_start(const std::string& scenario_json, const std::string& options_json, double part, double parts) {
    return tslab::wasm::guarded([&] {
        current.reset();
        const int n = whole(parts, "parts", 1, tslab::max_plan_threads);
        const int k = whole(part, "part", 0, n - 1);
        const tslab::plan_options o = tslab::parse_plan_options_text(options_json);
        const tslab::scenario s = tslab::parse_scenario_text(scenario_json);
        tslab::check_plan_gpus(s, o);
        current = std::make_unique<tslab::plan_search>(s, tslab::part_options(o, n), k, n);
        return tslab::plan_progress_json(current->progress()).dump();
    });
}

tslab::wasm::outcome plan_part_state() {
    return tslab::wasm::guarded([&] { return active().part_json().dump(); });
}

tslab::wasm::outcome plan_merge(const std::string& scenario_json, const std::string& options_json, const std::string& parts_json) {
    return tslab::wasm::guarded([&] { return tslab::plan_merge_json_text(scenario_json, options_json, parts_json); });
}

tslab::wasm::outcome plan_step(double budget) {
    return tslab::wasm::guarded([&] {
        if (!(budget >= 1 && budget <= 1e12))  // also NaN and ±Infinity: no cast of those to an integer
            throw tslab::input_error("budget", tslab::msg("plan.budget_range", {{"budget", fmt::format("{}", budget)}}));
        active().advance(static_cast<std::int64_t>(budget));
        return tslab::plan_progress_json(active().progress()).dump();
    });
}

tslab::wasm::outcome plan_result() {
    return tslab::wasm::guarded([&] { return tslab::plan_to_json(active().result()).dump(2); });
}

void plan_cancel() { current.reset(); }

}  // namespace

EMSCRIPTEN_BINDINGS(tslab_plan) {
    emscripten::function("plan", &plan);
    emscripten::function("planStart", &plan_start);
    emscripten::function("planStep", &plan_step);
    emscripten::function("planResult", &plan_result);
    emscripten::function("planCancel", &plan_cancel);
    emscripten::function("planPartStart", &plan_part_start);
    emscripten::function("planPartState", &plan_part_state);
    emscripten::function("planMerge", &plan_merge);
}
