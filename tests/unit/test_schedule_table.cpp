// The schedule rows (schedule_table.hpp): one row per schedule_kind, names round-trip, the row's
// fields match what its generator emits, and its closed-form bubble and in-flight count agree with
// the simulator where the sources say they are exact (the README and paper grids of test_pipeline_sim).
#include <catch2/catch.hpp>

#include <set>

#include "tslab/pipeline_sim.hpp"
#include "tslab/schedule_rules.hpp"
#include "tslab/schedule_table.hpp"

using namespace tslab;

namespace {

pipeline_timeline simulate(schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v, const pipeline_costs& c) {
    schedule_request q;
    q.kind = k, q.ranks = p, q.microbatches = m, q.vpp = v;
    return simulate_pipeline(generate_schedule(q), c);
}

// Idle time of the most idle rank: makespan − busy.
double most_idle(const pipeline_timeline& t) {
    double idle = 0;
    for (const auto& r : t.ranks) idle = std::max(idle, t.makespan_s - r.busy_s);
    return idle;
}

}  // namespace

TEST_CASE("every schedule_kind has exactly one row, at its index, and its name round-trips", "[schedule_table]") {
    REQUIRE(8 == schedule_rows.size());  // gpipe .. dualpipev
    std::set<std::string> names;
    for (std::size_t i = 0; i < schedule_rows.size(); ++i) {
        const auto kind = static_cast<schedule_kind>(i);
        const schedule_desc& d = describe(kind);
        INFO(d.name);
        CHECK(d.kind == kind);
        CHECK(names.insert(d.name).second);
        REQUIRE(schedule_from_name(d.name).has_value());
        CHECK(*schedule_from_name(d.name) == kind);
        CHECK(std::string(d.name) == to_string(kind));
        CHECK(schedule_names()[i] == d.name);
        CHECK(std::string(d.source).size() > 10);
        CHECK(d.bubble != nullptr);
        CHECK(d.inflight != nullptr);
        CHECK(d.generate != nullptr);
    }
    CHECK_FALSE(schedule_from_name("1f1c").has_value());
    CHECK(std::string("1f1b") == schedule_names()[1]);  // canonical order: gpipe, then 1F1B
}

TEST_CASE("each row's placement, chunks, copies and split backward are what its generator emits", "[schedule_table]") {
    for (const schedule_desc& d : schedule_rows) {
        INFO(d.name);
        const std::int64_t p = 4, v = d.chunks == chunks_rule::vpp ? 3 : 1, m = 24;
        schedule_request q;
        q.kind = d.kind, q.ranks = p, q.microbatches = m, q.vpp = v;
        const pipeline_schedule s = generate_schedule(q);
        CHECK(s.placement == d.placement);
        CHECK(s.chunks_per_rank == chunks_per_rank(d, v));
        CHECK(s.param_copies == d.param_copies);
        bool split = false;
        std::set<int> chunks;
        for (const auto& ops : s.rank_ops)
            for (const auto& o : ops) {
                split = split || o.kind == op_kind::I || o.kind == op_kind::W;
                chunks.insert(o.chunk);
            }
        CHECK(split == d.split_backward);
        CHECK(static_cast<std::int64_t>(chunks.size()) == s.chunks_per_rank);
    }
}

TEST_CASE("micro-batch rules in words follow the row's fields", "[schedule_table]") {
    CHECK("m ≥ 1" == microbatch_rule(describe(schedule_kind::one_f_one_b)));
    CHECK("m a multiple of p" == microbatch_rule(describe(schedule_kind::interleaved)));
    // deepseek-ai/DualPipe: dualpipe.py asserts num_chunks % 2 == 0 and num_chunks >= 2·num_ranks;
    // dualpipev.py only num_chunks >= 2·num_ranks.
    CHECK("m even, m ≥ 2p" == microbatch_rule(describe(schedule_kind::dualpipe)));
    CHECK("m ≥ 2p" == microbatch_rule(describe(schedule_kind::dualpipev)));
}

// DualPipe README table with B = F + W, W ≤ F (test_pipeline_sim.cpp); 1F1B and GPipe for any F, B;
// interleaved with per-chunk costs (Narayanan et al. section 2.2); ZB-H2 and ZB-V at F = I = W,
// where their (p−1)(F+B−2W) = (p−1)F is the parallelogram offset (arXiv 2401.10241 sections 3.1, 6).
TEST_CASE("every row's closed-form bubble equals the simulated idle of the busiest rank", "[schedule_table]") {
    for (const schedule_desc& d : schedule_rows)
        for (std::int64_t p : {2, 4, 8})
            for (double F : {1.0, 2.0})
                for (double w_share : {0.5, 1.0}) {
                    const bool zb_exact = d.kind == schedule_kind::zb_h2 || d.kind == schedule_kind::zbv;
                    const double W = zb_exact ? F : w_share * F, B = F + W;
                    pipeline_costs c;
                    c.F = F, c.B = B, c.W = W, c.FB = -1;
                    const std::int64_t v = d.chunks == chunks_rule::vpp ? 2 : 1, m = 3 * p;
                    INFO(d.name << " p=" << p << " F=" << F << " W=" << W);
                    REQUIRE(broken_schedule_rule(d.kind, p, m, v) == schedule_rule::ok);
                    const pipeline_timeline t = simulate(d.kind, p, m, v, c);
                    const double want = d.bubble({static_cast<double>(p), c.F, c.B, c.W, c.fb()});
                    if (zb_exact) {  // no idle inside any span: the bubble is the start offset of the last rank
                        CHECK(t.makespan_s - t.ranks.back().busy_s == Approx(want).margin(1e-9));
                    } else {
                        CHECK(most_idle(t) == Approx(want).margin(1e-9));
                    }
                }
}

// Per rank where the closed form is per rank: GPipe m; 1F1B p − r (Narayanan et al. section 2.2);
// ZB-V min(2p, 2m, m + r + 1) (test_pipeline_zbv.cpp). The busiest rank's peak for the rest: ZB-H1
// 1F1B's p and ZB-H2 2p − 1 (arXiv 2401.10241 Table 1), interleaved rank 0's Megatron warm-up + 1,
// DualPipe PP + 1 and DualPipeV 2p + 1 (DualPipe README, "Activation" column).
TEST_CASE("every row's in-flight count equals the simulated peak", "[schedule_table]") {
    for (const schedule_desc& d : schedule_rows)
        for (std::int64_t p : {2, 4, 6})
            for (std::int64_t m : {2 * p, 3 * p}) {
                const std::int64_t v = d.chunks == chunks_rule::vpp ? 2 : 1;
                INFO(d.name << " p=" << p << " m=" << m);
                pipeline_costs c;
                c.F = 1, c.B = 2, c.W = 1;
                const pipeline_timeline t = simulate(d.kind, p, m, v, c);
                const bool per_rank = d.kind == schedule_kind::gpipe || d.kind == schedule_kind::one_f_one_b || d.kind == schedule_kind::zbv;
                double busiest = 0;
                for (std::int64_t r = 0; r < p; ++r) {
                    const auto peak = static_cast<double>(t.ranks[static_cast<std::size_t>(r)].peak_inflight);
                    busiest = std::max(busiest, peak);
                    if (per_rank)
                        CHECK(peak == d.inflight(static_cast<double>(p), static_cast<double>(v), static_cast<double>(m), static_cast<double>(r)));
                }
                CHECK(busiest == d.inflight(static_cast<double>(p), static_cast<double>(v), static_cast<double>(m), 0.0));
            }
}

TEST_CASE("every row's in-flight count is monotone in the rank, so a class's largest is at one end", "[schedule_table]") {
    // class_inflight (memory.cpp) reads the first and last rank of a class only.
    for (const schedule_desc& d : schedule_rows)
        for (double p = 1; p <= 16; ++p)
            for (double v = 1; v <= 4; ++v)
                for (double m = 1; m <= 40; ++m) {
                    INFO(d.name << " p=" << p << " v=" << v << " m=" << m);
                    int rising = 0, falling = 0;
                    for (double r = 1; r < p; ++r) {
                        const double a = d.inflight(p, v, m, r - 1), b = d.inflight(p, v, m, r);
                        rising += b > a, falling += b < a;
                    }
                    CHECK((rising == 0 || falling == 0));
                }
}
