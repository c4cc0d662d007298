// Scenario parsing: defaults, presets with overrides, and a table of every class of bad input (scenario.hpp).
#include <catch2/catch.hpp>

#include "tslab/errors.hpp"
#include "tslab/scenario.hpp"
#include "tslab/schedule_table.hpp"

using namespace tslab;

namespace {

// The error message for `text`, or "" if it parsed.
std::string error_of(const std::string& text) {
    try {
        parse_scenario_text(text);
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("Every field has a default", "[scenario]") {
    const scenario s = parse_scenario_text("{}");
    CHECK(s.model.name == "gpt-1.7b");
    CHECK(s.cluster.name == "dgx-a100-80gb");
    CHECK(s.parallel.world() == 1);
    CHECK(s.cluster.nodes == 1);  // the cluster follows the plan when nodes is omitted
    CHECK(s.training.precision.master == dtype::fp32);
}

TEST_CASE("A preset part takes overrides beside it", "[scenario]") {
    const scenario s = parse_scenario_text(R"({"model": {"preset": "llama3-8b", "layers": 16}, "cluster": "dgx-h100"})");
    CHECK(s.model.layers == 16);
    CHECK(s.model.hidden == 4096);
    CHECK(s.cluster.gpu.flops_bf16 == 989.5e12);
}

TEST_CASE("Cluster size follows the plan unless nodes is given", "[scenario]") {
    const scenario s = parse_scenario_text(R"({"parallel": {"dp": 4, "tp": 8}})");
    CHECK(s.cluster.nodes == 4);
}

TEST_CASE("Bad input: each class names the field and the reason", "[scenario][errors]") {
    struct row {
        const char* input;
        const char* expected;
    };
    const row rows[] = {
        {R"({"model": "llama3-8b", "parallel": {"tp": 12}})", "parallel.tp: 12 does not divide model.heads = 32"},
        {R"({"parallel": {"dp": 2, "tp": 2}, "cluster": {"preset": "dgx-h100", "nodes": 2}})", "parallel: dp·tp·pp·cp = 2·2·1·1 = 4 ≠ world size 16"},
        {R"({"training": {"micro_bacth": 2}})", "training.micro_bacth: unknown field; did you mean micro_batch?"},
        {R"({"parallel": {"tp": 0}})", "parallel.tp: 0 is out of range"},
        {R"({"parallel": {"dp": -4}})", "parallel.dp: -4 is out of range"},
        {R"({"model": {"layers": 1e400}})", "model.layers: the number 1e400 is out of range"},
        {R"({"model": {"layers": 1e9}})", "model.layers: 1000000000 is out of range"},
        {R"({"training": {"seq_len": 2.5}})", "training.seq_len: expected an integer, got 2.5"},
        {R"({"training": {"seq_len": "long"}})", "training.seq_len: expected an integer, got a string"},
        {R"({"model": "llama-70b"})", "model: unknown model preset \"llama-70b\"; did you mean llama3-70b?"},
        {R"({"cluster": "dgx-h10"})", "cluster: unknown cluster preset \"dgx-h10\"; did you mean dgx-h100?"},
        {R"({"training": {"schedule": "1f1c"}})", "training.schedule: unknown value \"1f1c\""},
        {R"({"training": {"optimizer": "lion"}})", "training.optimizer: unknown value \"lion\""},
        {R"({"model": "gpt-1.7b", "parallel": {"dp": 3}, "training": {"global_batch": 8}})",
         "training.global_batch: 8 is not a multiple of micro_batch × dp = 1 × 3"},
        {R"({"parallel": {"ep": 2, "dp": 2}})", "parallel.ep: 2 needs a MoE model"},
        {R"({"model": "deepseek-v3", "parallel": {"ep": 8, "dp": 4}})", "parallel.ep: 8 does not divide dp·cp = 4 (expert-DP rule"},
        {R"({"parallel": {"vpp": 2}})", "parallel.vpp: 2 needs training.schedule = interleaved"},
        {R"({"training": {"schedule": "zbv"}})", "training.schedule: zbv is a pipeline schedule and needs parallel.pp ≥ 2; with one stage use 1f1b"},
        {R"({"parallel": {"vpp": 2}, "training": {"schedule": "interleaved"}})",
         "training.schedule: interleaved is a pipeline schedule and needs parallel.pp ≥ 2"},
        {R"({"parallel": {"pp": 3}, "training": {"schedule": "dualpipe", "global_batch": 12}})",
         "parallel.pp: DualPipe needs an even number of ranks (PP), got 3"},
        {R"({"parallel": {"pp": 4}, "training": {"schedule": "dualpipe", "global_batch": 4}})", "needs m ≥ 2·pp = 8 micro-batches, got 4"},
        {R"({"parallel": {"pp": 100}})", "parallel.pp: 100 pipeline chunks exceed model.layers = 24"},
        // deepseek-ai/DualPipe dualpipe.py step(): assert num_chunks % 2 == 0 (half enter at each end).
        {R"({"parallel": {"pp": 4}, "training": {"schedule": "dualpipe", "global_batch": 9}})",
         "training.global_batch: DualPipe splits the micro-batches between its two directions, so m must be even, got 9"},
        {R"({"parallel": {"pp": 2, "vpp": 2}, "training": {"schedule": "interleaved", "global_batch": 3}})",
         "training.global_batch: interleaved 1F1B needs micro-batches m = 3 divisible by pp = 2"},
        {R"({"schema": "tslab/scenario@2"})", "schema: \"tslab/scenario@2\" is not supported"},
        {R"([1, 2])", "$: expected an object, got an array"},
        {R"({"model": )", "$: truncated JSON at byte 11"},
        {R"({"training": {"offload": {"optimizer": 1.5}}})", "training.offload.optimizer: 1.5 is out of range [0, 1]"},
        {R"({"training": {"precision": "fp4-magic"}})", "training.precision.recipe: unknown value \"fp4-magic\""},
        {R"({"model": {"heads": 32, "kv_heads": 6}})", "model.kv_heads: 6 does not divide model.heads = 32"},
        {R"({"parallel": {"cp": 8, "cp_method": "ulysses", "tp": 8}, "model": "llama3-8b", "training": {"seq_len": 4096}})",
         "Ulysses degree 8 does not divide the heads per TP rank (32 / 8 = 4)"},
        {R"({"training": {"moe": {"imbalance": 0.5}}})", "training.moe.imbalance: 0.5 is below 1 (busiest / mean load; 0 = uniform routing)"},
        {R"({"training": {"moe": {"imbalance": -1}}})", "training.moe.imbalance: -1 is out of range"},
        {R"({"training": {"moe": {"redundant": 8}}})", "training.moe.redundant: unknown field"},
        {R"({"model": {"preset": "deepseek-v3", "moe": {"groups": 7}}})", "model.moe.groups: 7 groups do not split experts = 256 evenly"},
        {R"({"model": {"preset": "deepseek-v3", "moe": {"topk_groups": 0}}})", "model.moe.topk_groups: 0 is out of range"},
        {R"({"model": {"preset": "deepseek-v3", "moe": {"groups": 64, "topk_groups": 1}}})",
         "model.moe.topk_groups: 1 groups of 4 experts hold fewer than top_k = 8 experts"},
        {R"({"model": "deepseek-v3", "parallel": {"ep": 8, "dp": 8}, "training": {"moe": {"redundant_experts": 12}}})",
         "training.moe.redundant_experts: 12 is not a multiple of ep = 8"},
        {R"({"model": "deepseek-v3", "parallel": {"ep": 8, "dp": 8}, "training": {"moe": {"redundant_experts": 264}}})",
         "training.moe.redundant_experts: 264 exceeds model.moe.experts = 256"},
        {R"({"training": {"reliability": {"restart_s": -5}}})", "training.reliability.restart_s: -5 is out of range"},
        {R"({"training": {"reliability": {"checkpoint_storage_Bps": 0}}})", "training.reliability.checkpoint_storage_Bps: 0 is out of range"},
        {R"({"training": {"reliability": {"gpu_failure_rate_per_hour": 2}}})", "training.reliability.gpu_failure_rate_per_hour: 2 is out of range"},
        {R"({"training": {"reliability": {"gpu_failure_rate_per_hour": 1e-5, "job_mtbf_s": 3600}}})",
         "training.reliability.job_mtbf_s: give either gpu_failure_rate_per_hour or job_mtbf_s, not both"},
        {R"({"training": {"reliability": {"mtbf": 3600}}})", "training.reliability.mtbf: unknown field"},
    };
    for (const auto& r : rows) {
        INFO(r.input);
        const std::string msg = error_of(r.input);
        CHECK_THAT(msg, Catch::Contains(r.expected));
    }
}

TEST_CASE("Bad input never crashes: random truncations of a valid scenario", "[scenario][errors]") {
    const std::string good =
        R"({"model": {"preset": "deepseek-v3", "layers": 61}, "parallel": {"dp": 8, "ep": 8, "pp": 4}, "training": {"seq_len": 4096, "global_batch": 64}})";
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::string cut = good.substr(0, n);
        CHECK_FALSE(error_of(cut).empty());
    }
    CHECK(error_of(good).empty());
}

TEST_CASE("plan_rules_hold: the parser's rules without throwing, the reason only when asked", "[scenario]") {
    scenario s = parse_scenario_text(R"({"model": "llama3-8b", "parallel": {"tp": 8}})");
    CHECK(plan_rules_hold(s));
    s.parallel.tp = 12;
    CHECK_FALSE(plan_rules_hold(s));
    rule_violation why;
    CHECK_FALSE(plan_rules_hold(s, &why));
    CHECK(why.path == "parallel.tp");
    CHECK(why.reason == "12 does not divide model.heads = 32");
    s.parallel.tp = 8;
    s.training.micro_batch = 3;  // global batch 2·1·1·8 ... = 2 is not a multiple of 3
    CHECK_FALSE(plan_rules_hold(s, &why));
    CHECK(why.path == "training.global_batch");
}

TEST_CASE("plan_rules_hold is layout_rules_hold and schedule_rules_hold", "[scenario]") {
    // Every rule fails somewhere on this grid: tp vs heads, ep vs experts, etp > tp, CP chunks and
    // Ulysses heads, the schedule preconditions, the global batch.
    scenario s = parse_scenario_text(R"({"model": {"preset": "deepseek-v3", "layers": 8}, "parallel": {"dp": 8}, "training": {"global_batch": 64}})");
    std::int64_t held = 0, layout_broken = 0, schedule_broken = 0;
    for (std::int64_t tp : {1, 2, 3, 8})
        for (std::int64_t ep : {1, 4, 5})
            for (std::int64_t etp : {1, 2})
                for (std::int64_t cp : {1, 2, 3})
                    for (const auto& method : cp_method_rows)
                        for (std::int64_t pp : {1, 2, 4})
                            for (std::int64_t mb : {1, 3, 8})
                                for (const schedule_desc& d : schedule_rows) {
                                    auto& q = s.parallel;
                                    q.tp = tp, q.ep = ep, q.etp = etp, q.cp = cp, q.cp_method = method.kind, q.pp = pp, q.sp = tp > 1;
                                    q.vpp = d.chunks == chunks_rule::vpp ? 2 : 1;
                                    s.training.micro_batch = mb, s.training.schedule = d.kind;
                                    const bool layout = layout_rules_hold(s), schedule = schedule_rules_hold(s);
                                    CHECK(plan_rules_hold(s) == (layout && schedule));
                                    held += layout && schedule, layout_broken += !layout, schedule_broken += !schedule;
                                }
    CHECK(held > 0);
    CHECK(layout_broken > 0);
    CHECK(schedule_broken > 0);
}
