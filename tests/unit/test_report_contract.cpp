// What the report and the plan carry for the UI (issue 11): step segments that add up to the step
// time, the effective global batch with its source, and plan entries whose scenario reproduces them.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "tslab/planner.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

report of(const std::string& text) { return build_report(parse_scenario_text(text)); }

const step_segment& segment(const report& r, const std::string& id) {
    for (const auto& g : r.step.segments)
        if (g.id == id) return g;
    FAIL("no segment " << id);
    return r.step.segments.front();
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Every listed entry of a plan: its scenario's report gives its step time and memory total.
void check_entries_reproduce(const plan_result& r) {
    std::vector<const plan_entry*> entries;
    for (const auto& e : r.top) entries.push_back(&e);
    for (const auto& e : r.pareto) entries.push_back(&e);
    if (r.closest) entries.push_back(&*r.closest);
    REQUIRE(entries.size() > 1);
    const json j = plan_to_json(r);
    for (const auto* e : entries) {
        REQUIRE(e->scenario.is_object());
        const report rep = build_report(parse_scenario_text(e->scenario.dump()));
        CHECK(rep.step.time_s == Approx(e->time_s).epsilon(1e-9));
        CHECK(rep.memory.total_bytes == e->memory_bytes);
        // The search's own memory total, before the report re-timed the entry, agrees too.
        CHECK(rep.memory.total_bytes == e->search_memory_bytes);
    }
    for (const auto& e : j["top"]) {
        const report rep = build_report(parse_scenario(e["scenario"]));
        CHECK(rep.step.time_s == Approx(e["time_s"].get<double>()).epsilon(1e-9));
        CHECK(std::llround(rep.memory.total_bytes) == e["memory_bytes"].get<std::int64_t>());
    }
}

}  // namespace

TEST_CASE("step segments add up to the step time — recompute is its own segment", "[report][issue11]") {
    const report r = of(R"({"model": "deepseek-v3", "cluster": "hgx-h800", "parallel": {"dp": 16, "ep": 16, "pp": 4, "tp": 2, "cp": 2},
        "training": {"seq_len": 4096, "global_batch": 256, "recompute": "full", "overlap": {"dp": 0.5}}})");
    double time = 0, share = 0;
    for (const auto& g : r.step.segments) {
        CHECK(g.time_s >= 0);
        time += g.time_s, share += g.share;
    }
    CHECK(time == Approx(r.step.time_s).epsilon(1e-12));
    CHECK(share == Approx(1).epsilon(1e-12));
    // The recompute seconds are the compute estimate's, not text parsed back from L3's notes.
    CHECK(segment(r, "recompute").time_s == r.compute.recompute_step_s);
    CHECK(segment(r, "recompute").time_s > 0);
    CHECK(segment(r, "optimizer").time_s == r.compute.optimizer_s);
    // The slowest GPU's delay (sync.hpp) and host-link offload time are parts of the compute estimate too.
    CHECK(segment(r, "compute").time_s + segment(r, "recompute").time_s + segment(r, "optimizer").time_s + segment(r, "slowest_gpu").time_s +
              segment(r, "offload_optimizer").time_s + segment(r, "offload_activations").time_s ==
          Approx(r.compute.step_compute_s).epsilon(1e-12));
    CHECK(segment(r, "slowest_gpu").ledger == "L5");
    CHECK(segment(r, "bubble").time_s == r.timing.bubble_s);
    CHECK(segment(r, "p2p").time_s == r.timing.p2p_exposed_s);
    CHECK(segment(r, "expert_imbalance").time_s > 0);
    CHECK(segment(r, "cp").ledger == "L7");
    const json j = report_to_json(r);
    CHECK(j["step"]["segments"].size() == r.step.segments.size());
    CHECK(j["step"]["segments"][1]["id"] == "recompute");
    CHECK(j["step"]["global_batch"] == 256);
    CHECK(j["step"]["global_batch_source"] == "given");
    CHECK(j["step"]["global_batch_rule"] == "set by training.global_batch");
    CHECK(j["step"]["microbatches"] == 256 / 16);
    CHECK(j["memory"]["model_state_bytes"] == j["step"]["ledgers"][0]["bytes"]);
    CHECK(j["memory"]["activation_bytes"] == j["step"]["ledgers"][1]["bytes"]);
}

TEST_CASE("auto global batch: fixed when tp 8 -> 16 halves dp at a fixed GPU count (Llama 3 70B, 128 GPUs)", "[report][issue11]") {
    const report tp8 = of(R"({"model": "llama3-70b", "cluster": "dgx-h100", "parallel": {"dp": 16, "tp": 8},
        "training": {"seq_len": 8192}})");
    const report tp16 = of(R"({"model": "llama3-70b", "cluster": "dgx-h100", "parallel": {"dp": 8, "tp": 16},
        "training": {"seq_len": 8192}})");
    // 2^22 tokens / 8192 = 512 sequences ≥ 128 GPUs: 512 for both, whatever dp is.
    CHECK(tp8.input.training.global_batch == 512);
    CHECK(tp16.input.training.global_batch == 512);
    CHECK(tp16.microbatches == 2 * tp8.microbatches);
    CHECK(tp16.step.tokens_per_s * tp16.step.time_s == Approx(tp8.step.tokens_per_s * tp8.step.time_s));
    // Crossing nodes with TP 16 is slower at the same batch.
    CHECK(tp16.step.time_s > tp8.step.time_s);
    const json j = report_to_json(tp8);
    CHECK(j["step"]["global_batch_source"] == "auto");
    CHECK_THAT(j["step"]["global_batch_rule"].get<std::string>(), Catch::Contains("world 128 GPUs"));
    CHECK(j["step"]["micro_batch"] == 1);
    CHECK(j["step"]["microbatches"] == 32);
}

TEST_CASE("plan entries carry the scenario they were ranked with — its report reproduces them", "[planner][issue11]") {
    plan_options o;
    o.top = 6;
    o.gpus = 16;
    SECTION("datasheet cluster, auto batch") {
        check_entries_reproduce(run_plan(parse_scenario_text(R"({"model": "llama3-8b", "cluster": "dgx-h100", "parallel": {"dp": 16},
            "training": {"seq_len": 4096}})"),
                                         o));
    }
    SECTION("MoE with a given batch and node count, searched on another GPU count") {
        o.gpus = 256;
        check_entries_reproduce(run_plan(parse_scenario_text(R"({"model": "deepseek-v3", "cluster": {"preset": "dgx-h100", "nodes": 2},
            "parallel": {"dp": 16}, "training": {"seq_len": 4096, "global_batch": 64, "overlap": {"dp": 0.5}}})"),
                                         o));
    }
    SECTION("calibrated cluster: the profile stays in the entry's cluster") {
        const std::string profile = read_text(std::string(TSLAB_SOURCE_DIR) + "/tests/data/calibration/cpu-2rank-quick.json");
        REQUIRE_FALSE(profile.empty());
        const plan_result r = run_plan(parse_scenario_text(R"({"model": "llama3-8b", "cluster": {"preset": "dgx-h100", "calibration": )" + profile +
                                                           R"(}, "parallel": {"dp": 16}, "training": {"seq_len": 4096}})"),
                                       o);
        REQUIRE_FALSE(r.top.empty());
        CHECK(r.top[0].scenario["cluster"]["calibration"].is_object());
        check_entries_reproduce(r);
    }
}
