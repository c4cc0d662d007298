// ZB-V (Qi et al. arXiv 2401.10241, section 6 "memory efficient zero bubble schedule"; the authors'
// handcrafted generator sail-sg/zero-bubble-pipeline-parallelism, handcrafted_zb_v) against the paper
// over a grid of (p, m): zero bubble inside every rank's span at T_F = T_B = T_W, 1F1B's activation
// memory, one parameter copy, and every micro-batch through F, I and W on every stage once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <tuple>

#include "tslab/pipeline_cost_model.hpp"
#include "tslab/pipeline_sim.hpp"
#include "tslab/schedule_io.hpp"
#include "tslab/schedule_shape.hpp"
#include "pipeline_checks.hpp"

using namespace tslab;

namespace {

schedule_run run_zbv(std::int64_t p, std::int64_t m, double F, double B, double W) {
    schedule_spec spec;
    spec.request.kind = schedule_kind::zbv;
    spec.request.ranks = p;
    spec.request.microbatches = m;
    spec.costs.F = F, spec.costs.B = B, spec.costs.W = W;
    spec.costs.p2p_s = 0;
    return run_schedule(spec);
}

// The paper's steady state needs 2p − 1 micro-batches (the handcrafted generator pads shorter runs
// up to max(m, 2p − 1)); these are the m of the zero-bubble claims.
std::vector<std::int64_t> steady_ms(std::int64_t p) { return {2 * p - 1, 2 * p, 3 * p, 4 * p + 1}; }

}  // namespace

// The zero-bubble README table (sail-sg/zero-bubble-pipeline-parallelism, "Comparison of schedules",
// assuming T_F = T_B = T_W) gives ZB-V a bubble rate of 0 and 1F1B's activation memory. Each rank
// runs two chunks, so it is busy 2m(F + I + W) = 6mt with per-chunk F = I = W = t (B = I + W = 2t).
// "Zero bubble" is no idle between a rank's first op and its last. Rank r cannot start before its
// first forward has crossed the r ranks above it (r·t), so the makespan is
//     6mt + (p − 1)t,
// the same parallelogram offset as ZB-H2 (test_pipeline_zero_bubble.cpp), with half-stage chunks.
TEST_CASE("ZB-V: F = I = W and p2p = 0 leave no rank idle inside its span — makespan 6mt + (p − 1)t", "[zbv]") {
    for (std::int64_t p = 2; p <= 8; ++p)  // ZB-V needs p ≥ 2 (schedule_table.hpp min_pp)
        for (std::int64_t m : steady_ms(p))
            for (double t : {1.0, 0.5, 2.5}) {
                INFO("p=" << p << " m=" << m << " t=" << t);
                const auto r = run_zbv(p, m, t, 2 * t, t);
                check_no_idle_inside_spans(r.timeline, 6.0 * m * t);
                CHECK(r.timeline.makespan_s == Approx(6.0 * m * t + (p - 1) * t));
            }
}

// Section 6: ZB-V keeps the peak activation memory of 1F1B (p micro-batches of a full stage on the
// first rank, Table 1's p·M_B) and, because both of a worker's chunks hold the same layers' worth,
// the same peak on every worker. A chunk is half a stage, so that is 2p micro-batch-chunks per rank.
TEST_CASE("ZB-V: every rank peaks at 2p chunks in flight, 1F1B's p full stages — one parameter copy", "[zbv]") {
    for (std::int64_t p = 2; p <= 8; ++p)  // ZB-V needs p ≥ 2 (schedule_table.hpp min_pp)
        for (std::int64_t m : steady_ms(p)) {
            INFO("p=" << p << " m=" << m);
            const auto r = run_zbv(p, m, 1.0, 2.0, 1.0);
            for (const auto& x : r.timeline.ranks) CHECK(x.peak_inflight == 2 * p);
            CHECK(r.timeline.param_copies == 1);
            CHECK(r.schedule.param_copies == 1);
        }
}

// Every micro-batch runs F, I and W exactly once on each of the 2p stages of the V, each on the
// rank and chunk that hold the stage (stage s < p on rank s chunk 0, else rank 2p − 1 − s chunk 1),
// with no full B and no overlapped FB; the validator then checks dependencies and deadlock.
TEST_CASE("ZB-V: every micro-batch gets F, I and W once on every stage, on the V's rank and chunk", "[zbv]") {
    for (std::int64_t p = 2; p <= 8; ++p)  // ZB-V needs p ≥ 2 (schedule_table.hpp min_pp)
        for (std::int64_t m = 1; m <= 3 * p + 1; ++m) {
            INFO("p=" << p << " m=" << m);
            schedule_request q;
            q.kind = schedule_kind::zbv, q.ranks = p, q.microbatches = m;
            const pipeline_schedule s = generate_schedule(q);
            REQUIRE(s.stages == 2 * p);
            REQUIRE_NOTHROW(validate_schedule(s));
            std::map<std::tuple<int, int, int>, int> seen;  // (kind, stage, micro-batch) -> count
            for (std::size_t rank = 0; rank < s.rank_ops.size(); ++rank)
                for (const auto& o : s.rank_ops[rank]) {
                    REQUIRE((o.kind == op_kind::F || o.kind == op_kind::I || o.kind == op_kind::W));
                    const std::int64_t home = o.stage < p ? o.stage : 2 * p - 1 - o.stage;
                    CHECK(static_cast<std::int64_t>(rank) == home);
                    CHECK(o.chunk == (o.stage < p ? 0 : 1));
                    ++seen[{static_cast<int>(o.kind), o.stage, o.microbatch}];
                }
            CHECK(seen.size() == static_cast<std::size_t>(3 * 2 * p * m));
            for (const auto& [key, n] : seen) CHECK(n == 1);
        }
}

// The phases of the handcrafted generator, counted at the head of each rank: 2(p − r) − 1 forwards
// of chunk 0, then r pairs F1 F0, then the first input-gradient on chunk 1 (the V turns on rank 0
// first: stage 2p − 1 is rank 0's chunk 1), followed at once by its W.
TEST_CASE("ZB-V: warm-up is 2(p − r) − 1 F0, r × F1F0, then F1 I1 W1", "[zbv]") {
    for (std::int64_t p = 2; p <= 8; ++p)  // ZB-V needs p ≥ 2 (schedule_table.hpp min_pp)
        for (std::int64_t m : steady_ms(p)) {
            INFO("p=" << p << " m=" << m);
            schedule_request q;
            q.kind = schedule_kind::zbv, q.ranks = p, q.microbatches = m;
            const pipeline_schedule s = generate_schedule(q);
            for (std::int64_t r = 0; r < p; ++r) {
                INFO("rank " << r);
                const auto& ops = s.rank_ops[static_cast<std::size_t>(r)];
                const std::int64_t lead = 2 * (p - r) - 1;
                for (std::int64_t i = 0; i < lead; ++i) CHECK((ops[i].kind == op_kind::F && ops[i].chunk == 0));
                for (std::int64_t i = 0; i < 2 * r; ++i) CHECK((ops[lead + i].kind == op_kind::F && ops[lead + i].chunk == (i % 2 == 0 ? 1 : 0)));
                const std::size_t turn = static_cast<std::size_t>(lead + 2 * r);
                CHECK((ops[turn].kind == op_kind::F && ops[turn].chunk == 1));
                CHECK((ops[turn + 1].kind == op_kind::I && ops[turn + 1].chunk == 1 && ops[turn + 1].microbatch == 0));
                CHECK((ops[turn + 2].kind == op_kind::W && ops[turn + 2].chunk == 1 && ops[turn + 2].microbatch == 0));
            }
        }
}

// Below 2p − 1 micro-batches the generator drops the padded micro-batches, as the authors' code does.
// Rank r's peak is then reached at the end of the warm-up: min(m, 2p − r − 1) F0, min(m, r) F1 and,
// when r < m, the first F1 of the F1 I1 W1 phase, i.e. min(2p, 2m, m + r + 1) chunks. The memory
// ledger's closed form (schedule_shape.cpp) must give the same count.
TEST_CASE("ZB-V with any m: peak min(2p, 2m, m + r + 1) per rank, equal to the ledger's closed form", "[zbv]") {
    for (std::int64_t p = 2; p <= 8; ++p)  // ZB-V needs p ≥ 2 (schedule_table.hpp min_pp)
        for (std::int64_t m = 1; m <= 3 * p; ++m) {
            INFO("p=" << p << " m=" << m);
            const auto run = run_zbv(p, m, 1.0, 2.0, 1.0);
            const pipeline_shape shape = closed_form_shape(schedule_kind::zbv, p, 1, m);
            for (std::int64_t r = 0; r < p; ++r) {
                INFO("rank " << r);
                const std::int64_t want = std::min({2 * p, 2 * m, m + r + 1});
                CHECK(run.timeline.ranks[static_cast<std::size_t>(r)].peak_inflight == want);
                CHECK(shape.inflight[static_cast<std::size_t>(r)] == static_cast<double>(want));
            }
        }
}

// The cost model's closed form (used above the op cap) must agree with the simulation where the
// paper's claim holds: F = I = W = t gives a bubble of (p − 1)t, the parallelogram offset above.
TEST_CASE("ZB-V: the closed-form bubble equals the simulated one at F = I = W", "[zbv]") {
    for (std::int64_t p : {2, 4, 8})
        for (double t : {1.0, 0.25}) {
            INFO("p=" << p << " t=" << t);
            schedule_request q;
            q.kind = schedule_kind::zbv, q.ranks = p, q.microbatches = 3 * p;
            pipeline_costs k;
            k.F = t, k.B = 2 * t, k.W = t, k.p2p_s = 0;
            const pipeline_timing sim = time_pipeline(q, k);
            REQUIRE(sim.simulated);
            CHECK(sim.bubble_s == Approx((p - 1) * t));
            CHECK(closed_form_pipeline(q, k).bubble_s == Approx((p - 1) * t));
            CHECK(closed_form_pipeline(q, k).busy_s == Approx(sim.busy_s));
        }
}
