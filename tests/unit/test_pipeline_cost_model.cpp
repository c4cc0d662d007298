// Chunk costs from the compute model, pipeline timing (simulated and closed form), and the report taking them.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tslab/pipeline_cost_model.hpp"
#include "tslab/pipeline_sim.hpp"
#include "tslab/report.hpp"
#include "tslab/step_model.hpp"

using namespace tslab;

namespace {

scenario scenario_with(const std::string& schedule, std::int64_t pp, std::int64_t global_batch, std::int64_t vpp = 1) {
    return parse_scenario_text(R"({"model": {"preset": "gpt-22b"}, "cluster": {"preset": "dgx-h100"},
        "parallel": {"tp": 8, "pp": )" +
                               std::to_string(pp) + R"(, "vpp": )" + std::to_string(vpp) + R"(},
        "training": {"seq_len": 2048, "micro_batch": 1, "global_batch": )" +
                               std::to_string(global_batch) + R"(, "schedule": ")" + schedule + R"("}})");
}

}  // namespace

TEST_CASE("chunk costs: a stage's per-micro-batch F, I + W and W, cut into the chunks of the path") {
    compute_estimate c;
    c.chunk_F_s = 1.0, c.chunk_B_s = 1.5, c.chunk_W_s = 0.5;  // per stage / vpp, as estimate_compute gives them
    schedule_request q;
    q.ranks = 4, q.microbatches = 8;
    q.kind = schedule_kind::one_f_one_b;  // one chunk per rank and stage
    pipeline_costs k = chunk_costs(c, q, 0.25);
    CHECK(k.F == 1.0);
    CHECK(k.B == 2.0);  // full backward I + W
    CHECK(k.W == 0.5);
    CHECK(k.fb() == 3.0);
    CHECK(k.p2p_s == 0.25);
    q.kind = schedule_kind::interleaved, q.vpp = 2;  // chunk_* already hold 1/vpp of a stage
    CHECK(chunk_costs(c, q, 0).F == 1.0);
    q.vpp = 1;
    for (auto v : {schedule_kind::zbv, schedule_kind::dualpipev}) {  // 2p stages: a stage holds two chunks
        q.kind = v;
        CHECK(chunk_costs(c, q, 0).F == 0.5);
    }
    q.kind = schedule_kind::dualpipe;  // p stages, each micro-batch visits every rank once
    CHECK(chunk_costs(c, q, 0).B == 2.0);
}

TEST_CASE("closed forms above the op cap: m(F+B) busy and the DualPipe README bubbles") {
    pipeline_costs k;
    k.F = 1, k.B = 2, k.W = 0.5, k.p2p_s = 0.01;
    schedule_request q;
    q.ranks = 8, q.microbatches = 200'000;  // 1F1B: 2·8·200000 = 3.2M ops > max_schedule_ops
    const pipeline_timing t = time_pipeline(q, k);
    REQUIRE_FALSE(t.simulated);
    CHECK(t.busy_s == Approx(200'000 * 3.0));
    CHECK(t.bubble_s == Approx(7 * 3.0));  // (p−1)(F+B)
    CHECK(t.p2p_exposed_s == Approx(2 * 7 * 0.01));  // fill and drain
    q.kind = schedule_kind::zb_h1;
    CHECK(time_pipeline(q, k).bubble_s == Approx(7 * (3.0 - 1.0)));  // (p−1)(F+B−2W)
    q.kind = schedule_kind::dualpipe;
    CHECK(time_pipeline(q, k).bubble_s == Approx(3 * (3.0 + 2.0 - 1.5)));  // (p/2−1)(F&B+B−3W), F&B = F+B
}

TEST_CASE("simulated timing: bubble without P2P, P2P as the makespan it adds") {
    pipeline_costs k;
    k.F = 1, k.B = 2, k.W = 1;
    schedule_request q;
    q.ranks = 4, q.microbatches = 1;
    k.p2p_s = 0.25;
    const pipeline_timing t = time_pipeline(q, k);
    REQUIRE(t.simulated);
    // one micro-batch: makespan p(F+B) + 2(p−1)·p2p, busy F+B on every rank
    CHECK(t.busy_s == Approx(3.0));
    CHECK(t.bubble_s == Approx(3 * 3.0));
    CHECK(t.p2p_exposed_s == Approx(2 * 3 * 0.25));
    CHECK(t.makespan_s == Approx(4 * 3.0 + 1.5));
}

TEST_CASE("report: 1F1B in-flight counts come from the simulator and still equal min(p − r, m)") {
    for (std::int64_t m : {2, 16}) {
        const report r = build_report(scenario_with("1f1b", 4, m));
        REQUIRE(r.timing.simulated);
        for (std::int64_t rank = 0; rank < 4; ++rank) CHECK(r.pipeline.inflight[static_cast<std::size_t>(rank)] == std::min<double>(4 - rank, m));
        // Equal stage times: the bubble (P2P apart) is (p−1)(F+B) with the compute model's chunk
        // costs plus the stage's exposed TP traffic per micro-batch.
        const stage_comm tp = stage_comm_per_microbatch(r.comm, m, ep_sm_share(r.input));
        CHECK(tp.fwd_s > 0);
        const double fb = r.compute.chunk_F_s + r.compute.chunk_B_s + r.compute.chunk_W_s + tp.fwd_s + tp.bwd_s;
        CHECK(r.timing.bubble_s == Approx(3 * fb));
        CHECK(r.timing.busy_s == Approx(static_cast<double>(m) * fb));
        CHECK(r.timing.p2p_exposed_s > 0);  // pp = 4 × tp = 8 spans nodes: every transfer crosses InfiniBand
    }
}

TEST_CASE("report: DualPipe holds PP + 1 in flight and 2 parameter copies — JSON has makespan and bubble") {
    const report r = build_report(scenario_with("dualpipe", 4, 8));
    REQUIRE(r.timing.simulated);
    CHECK(r.pipeline.param_copies == 2);
    CHECK(*std::max_element(r.pipeline.inflight.begin(), r.pipeline.inflight.end()) == 5);  // DualPipe README: PP + 1
    const json j = report_to_json(r);
    CHECK(j["pipeline"]["makespan_s"].get<double>() > 0);
    CHECK(j["pipeline"]["bubble_fraction"].get<double>() > 0);
    CHECK(j["pipeline"]["simulated"] == true);
}

namespace {

report tp_across_nodes(double inter_Bps) {
    // The issue's repro: gpt-175b on 4096 A100, tp 32 (four nodes), pp 16, dp 8, global batch 8, 1F1B.
    return build_report(parse_scenario({{"model", "gpt-175b"},
                                        {"cluster", {{"preset", "dgx-a100-80gb"}, {"inter_node", {{"bandwidth_Bps", inter_Bps}}}}},
                                        {"parallel", {{"tp", 32}, {"pp", 16}, {"dp", 8}}},
                                        {"training", {{"global_batch", 8}, {"schedule", "1f1b"}}}}));
}

double exposed(const report& r, const char* id) {
    for (const auto& g : r.step.segments)
        if (g.id == id) return g.time_s;
    return 0;
}

}  // namespace

TEST_CASE("TP communication sits in the chunk costs: a slower link raises the bubble", "[pipeline]") {
    const report fast = tp_across_nodes(25e9), slow = tp_across_nodes(2.5e9);
    REQUIRE(fast.microbatches == 1);
    REQUIRE(fast.timing.simulated);
    const double tp_fast = exposed(fast, "tp"), tp_slow = exposed(slow, "tp");
    CHECK(tp_slow > 3 * tp_fast);
    // One micro-batch through 16 stages: the other 15 stages' F + B, TP included, is the bubble.
    CHECK(slow.timing.bubble_s - fast.timing.bubble_s == Approx(15 * (tp_slow - tp_fast)).epsilon(1e-6));
    const compute_estimate& c = fast.compute;
    CHECK(fast.timing.bubble_s == Approx(15 * (c.stage_F_s + c.stage_B_s + c.stage_W_s + tp_fast)).epsilon(1e-6));
}

TEST_CASE("Stage communication per micro-batch splits TP forward / backward by call count", "[pipeline]") {
    const report r = tp_across_nodes(25e9);
    const stage_comm c = stage_comm_per_microbatch(r.comm, r.microbatches, ep_sm_share(r.input));
    CHECK(c.fwd_s + c.bwd_s == Approx(exposed(r, "tp")).epsilon(1e-12));
    CHECK(c.fwd_s == Approx(c.bwd_s));  // 2 calls forward, 2 backward (no recompute)
}

TEST_CASE("one stage: the closed form stands in for the simulator and equals it exactly") {
    pipeline_costs k;
    k.F = 1.25, k.B = 2.5, k.W = 0.75, k.p2p_s = 0.5;  // p2p never applies with one stage
    for (auto kind : {schedule_kind::gpipe, schedule_kind::one_f_one_b})
        for (std::int64_t m : {1, 2, 7, 1024}) {
            schedule_request q;
            q.kind = kind, q.ranks = 1, q.microbatches = m;
            const pipeline_timing t = time_pipeline(q, k);
            CHECK_FALSE(t.simulated);
            const pipeline_timeline sim = simulate_pipeline(generate_schedule(q), k);
            CHECK(t.makespan_s == Approx(sim.makespan_s).epsilon(1e-12));
            CHECK(t.busy_s == Approx(sim.ranks[0].busy_s).epsilon(1e-12));
            CHECK(t.bubble_s == 0.0);
            CHECK(t.p2p_exposed_s == 0.0);
            CHECK(t.param_copies == sim.param_copies);
        }
}
