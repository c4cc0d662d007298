// The planner split over threads (planner_run.cpp): every thread count lists the same plans with the
// same counts as one thread; only candidates_timed and the pipeline-cache counts may differ.
#include <catch2/catch.hpp>

#include "tslab/planner.hpp"

using namespace tslab;

namespace {

json searched(const scenario& s, plan_options o, int threads) {
    o.threads = threads;
    json j = plan_to_json(run_plan(s, o));
    for (const char* k : {"elapsed_s", "candidates_timed", "pipeline_cache"}) j.erase(k);
    return j;
}

void same_at_every_thread_count(const scenario& s, const plan_options& o) {
    const json one = searched(s, o, 1);
    for (int threads : {2, 3, 5}) {
        INFO(threads << " threads");
        const json split = searched(s, o, threads);
        CHECK(split["candidates_evaluated"] == one["candidates_evaluated"]);
        CHECK(split["candidates_fitting"] == one["candidates_fitting"]);
        CHECK(split["top"] == one["top"]);
        CHECK(split["pareto"] == one["pareto"]);
        CHECK(split["closest"] == one["closest"]);
        CHECK(split == one);
    }
}

}  // namespace

TEST_CASE("planner threads: a MoE search split over 2, 3 and 5 threads equals one thread's", "[planner][threads]") {
    // DeepSeek-V3 cut to 8 layers on 64 H100: EP, etp, CP methods and DualPipe, each part holding
    // other layouts' best plans and front members, which the merge must weigh against each other.
    const scenario s = parse_scenario_text(R"({"model": {"preset": "deepseek-v3", "layers": 8}, "cluster": "dgx-h100",
        "parallel": {"dp": 8}, "training": {"seq_len": 4096, "global_batch": 64}})");
    plan_options o;
    o.gpus = 64;
    same_at_every_thread_count(s, o);
}

TEST_CASE("planner threads: the scenario's own layout and its rank come through the merge", "[planner][threads]") {
    const scenario s = parse_scenario_text(R"({"model": "gpt-1.7b", "cluster": "dgx-a100-80gb", "parallel": {"dp": 4, "tp": 2},
        "training": {"seq_len": 2048, "global_batch": 16}})");
    same_at_every_thread_count(s, {});
    plan_options o;
    o.threads = 3;
    const plan_result r = run_plan(s, o);
    REQUIRE(r.baseline.best_of_layout.has_value());
    CHECK(r.baseline.best_of_layout->choice.tp == 2);
    CHECK(r.baseline.best_of_layout->choice.dp == 4);
}

TEST_CASE("planner threads: when nothing fits every thread count names the same closest plan", "[planner][threads]") {
    const scenario s = parse_scenario_text(R"({"model": "gpt-1t", "parallel": {"dp": 8}, "training": {"global_batch": 8}})");
    same_at_every_thread_count(s, {});
}

TEST_CASE("planner threads: a capped split search says so, and options.threads is range-checked", "[planner][threads]") {
    plan_options o;
    o.threads = 4;
    o.max_candidates = 40;  // 10 per part
    const plan_result r = run_plan(parse_scenario_text(R"({"model": "gpt-1.7b", "cluster": "dgx-a100-80gb", "parallel": {"dp": 8},
        "training": {"seq_len": 2048, "global_batch": 16}})"),
                                   o);
    CHECK(r.progress.capped);
    CHECK(r.progress.groups_done < r.progress.groups_total);
    CHECK_THAT(r.message, Catch::Contains("the result is partial"));
    CHECK(parse_plan_options(json{{"threads", 8}}).threads == 8);
    CHECK_THROWS_WITH(parse_plan_options(json{{"threads", max_plan_threads + 1}}), Catch::Contains("options.threads: 65 is out of range"));
    CHECK_THROWS_WITH(parse_plan_options(json{{"threads", -1}}), Catch::Contains("options.threads: -1 is out of range"));
}

TEST_CASE("planner threads: a part that reads another's bounds times fewer plans and merges to the same result", "[planner][threads]") {
    // Deterministic: part 0 runs to the end first, then part 1 with and without its bounds.
    const scenario s = parse_scenario_text(R"({"model": {"preset": "deepseek-v3", "layers": 8}, "cluster": "dgx-h100",
        "parallel": {"dp": 8}, "training": {"seq_len": 4096, "global_batch": 64}})");
    plan_options o;
    o.gpus = 64;
    const plan_options each = part_options(o, 2);
    const auto run_parts = [&](bool share) {
        shared_bounds bounds(2);
        std::vector<plan_search> parts;
        for (int k = 0; k < 2; ++k) {
            parts.emplace_back(s, each, k, 2);
            if (share) parts.back().share_bounds(&bounds);
        }
        while (!parts[0].advance(1'000'000)) {}
        while (!parts[1].advance(1'000'000)) {}
        const std::int64_t timed = parts[1].progress().timed;
        json j = plan_to_json(plan_search::merged(std::move(parts)).result());
        for (const char* k : {"elapsed_s", "candidates_timed", "pipeline_cache"}) j.erase(k);
        return std::pair{j, timed};
    };
    const auto [alone, timed_alone] = run_parts(false);
    const auto [shared, timed_shared] = run_parts(true);
    CHECK(shared == alone);
    CHECK(shared == searched(s, o, 1));
    INFO(timed_shared << " of " << timed_alone);
    CHECK(timed_shared < timed_alone);
}
