// The search in parts carried as JSON (tslab/plan-part@1), as the browser's Web Workers run it: the
// parts' states written, read back and merged give one search's result; a part that is malformed
// or belongs to another search is an input error naming where.
#include <catch2/catch.hpp>

#include "tslab/planner.hpp"

using namespace tslab;

namespace {

json without_timing(json j) {
    for (const char* k : {"elapsed_s", "candidates_timed", "pipeline_cache"}) j.erase(k);
    return j;
}

// Each part searched on its own, its state sent through text (as postMessage would).
json part_states(const scenario& s, const plan_options& o, int n) {
    json states = json::array();
    for (int k = 0; k < n; ++k) {
        plan_search p(s, part_options(o, n), k, n);
        while (!p.advance(20'000)) {}
        states.push_back(json::parse(p.part_json().dump()));
    }
    return states;
}

json merged_result(const scenario& s, const plan_options& o, const json& states) {
    return plan_to_json(plan_search::merged_from_json(s, o, states).result());
}

const scenario& moe() {
    static const scenario s = parse_scenario_text(R"({"model": {"preset": "deepseek-v3", "layers": 8}, "cluster": "dgx-h100",
        "parallel": {"dp": 8}, "training": {"seq_len": 4096, "global_batch": 64}})");
    return s;
}

}  // namespace

TEST_CASE("plan parts: DeepSeek-V3 (8 layers) on 64 GPUs in 2 and 3 parts merged from JSON equals one search", "[planner][parts]") {
    plan_options o;
    o.gpus = 64;
    o.threads = 1;
    const json one = without_timing(plan_to_json(run_plan(moe(), o)));
    REQUIRE(one["top"].size() == 10);
    for (int n : {2, 3}) {
        INFO(n << " parts");
        const json states = part_states(moe(), o, n);
        CHECK(states[0]["best"].size() >= 1);
        CHECK(without_timing(merged_result(moe(), o, states)) == one);
    }
}

TEST_CASE("plan parts: the scenario's own layout and a nothing-fits search come through the JSON merge", "[planner][parts]") {
    // Llama 3 70B on its own 64 GPUs: baseline_best travels with the part that searched its layout.
    const scenario s = parse_scenario_text(R"({"model": "llama3-70b", "cluster": "dgx-h100", "parallel": {"dp": 2, "tp": 8, "pp": 4},
        "training": {"seq_len": 4096, "global_batch": 64}})");
    plan_options o;
    o.threads = 1;
    const json one = without_timing(plan_to_json(run_plan(s, o)));
    REQUIRE(one["scenario_plan"]["layout_rank"] >= 1);
    CHECK(without_timing(merged_result(s, o, part_states(s, o, 3))) == one);
    // GPT 1T on 8 GPUs fits nowhere: the closest miss is the one one search names.
    const scenario big = parse_scenario_text(R"({"model": "gpt-1t", "cluster": "dgx-a100-80gb", "parallel": {"dp": 8},
        "training": {"seq_len": 2048, "global_batch": 8}})");
    const json miss = without_timing(plan_to_json(run_plan(big, o)));
    REQUIRE(miss["candidates_fitting"] == 0);
    CHECK(without_timing(merged_result(big, o, part_states(big, o, 2))) == miss);
}

TEST_CASE("plan parts: malformed parts and parts of another search are input errors at their path", "[planner][parts]") {
    plan_options o;
    o.gpus = 64;
    const json states = part_states(moe(), o, 2);
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, json::array()), "parts: must be a non-empty array");
    // In the wrong order: part 1's state where part 0's belongs.
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, json::array({states[1], states[0]})),
                      "parts[0].part: does not belong to this search: expected part 0");
    // Searched for 64 GPUs, merged as a search for 128.
    plan_options other = o;
    other.gpus = 128;
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), other, states), "parts[0].gpus: does not belong to this search: expected gpus 128");
    json bad = states;
    bad[1]["best"][0]["zero"] = 7;
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), "parts[1].best[0].zero: 7 is out of range [0, 3]");
    bad = states;
    bad[0]["front"] = "none";
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), "parts[0].front: expected an array, got a string");
    bad = states;
    bad[0]["schema"] = "tslab/plan@1";
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), Catch::StartsWith("parts[0].schema: does not belong to this search"));
    // A plan the search could not have made: the merge re-times listed plans with the full report.
    bad = states;
    bad[0]["best"][0]["dp"] = 1 << 20;
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), "parts[0].best[0].dp: 1048576 is out of range [1, 64]");
    bad = states;
    bad[0]["front"][0]["tp"] = bad[0]["front"][0]["tp"].get<int>() == 1 ? 2 : 1;
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), "parts[0].front[0]: does not belong to this search: expected dp·tp·pp·cp 64");
    bad = states;
    bad[1]["best"][0]["vpp"] = 9;  // 8 layers
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), "parts[1].best[0].vpp: 9 is out of range [1, 8]");
    bad = states;
    bad[1]["best"][0]["schedule"] = "2f2b";
    CHECK_THROWS_WITH(plan_search::merged_from_json(moe(), o, bad), Catch::StartsWith("parts[1].best[0].schedule: unknown value \"2f2b\""));
}
