// The bubble lower bound (pipeline_bound.hpp) against the simulator: never above time_pipeline's
// bubble over a grid of schedules, ranks, micro-batches, vpp and random costs (P2P included), and
// exactly 1F1B's (p − 1)(F + B), so a bound that overreaches or says nothing fails here.
#include <catch2/catch.hpp>

#include <random>

#include "tslab/errors.hpp"
#include "tslab/pipeline_bound.hpp"
#include "tslab/pipeline_cost_model.hpp"

using namespace tslab;

namespace {

// Costs the simulator accepts (check_costs): W ≤ B, max(F, B) ≤ FB ≤ F + B or no overlap.
pipeline_costs random_costs(std::mt19937_64& rng, bool overlap, bool p2p) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    pipeline_costs c;
    c.F = 0.05 + 2 * u(rng);
    c.B = 0.05 + 4 * u(rng);
    c.W = u(rng) < 0.2 ? 0 : c.B * u(rng);
    c.FB = overlap ? std::max(c.F, c.B) + u(rng) * std::min(c.F, c.B) : -1;
    c.p2p_s = p2p ? 0.5 * u(rng) : 0;
    return c;
}

}  // namespace

TEST_CASE("bubble lower bound: never above the simulated bubble", "[pipeline]") {
    std::mt19937_64 rng(20240611);
    std::int64_t checked = 0, positive = 0;
    for (const schedule_desc& d : schedule_rows)
        for (std::int64_t p : {2, 3, 4, 6, 8, 16})
            for (std::int64_t m : {1, 2, 3, 4, 5, 8, 12, 16, 17, 32, 48})
                for (std::int64_t v : {1, 2, 3, 4}) {
                    if ((v > 1) != (d.chunks == chunks_rule::vpp)) continue;
                    const schedule_request q{d.kind, p, m, v};
                    pipeline_schedule s;
                    try {
                        s = generate_schedule(q);
                    } catch (const input_error&) {
                        continue;  // a precondition of the schedule (m ≥ 2p, m a multiple of p, ...)
                    }
                    const bubble_bound b = bubble_bound_of(s);
                    for (int i = 0; i < 6; ++i) {
                        const pipeline_costs c = random_costs(rng, d.ep_overlap && i % 2 == 0, i >= 3);
                        const double bound = bubble_lower_bound(b, c), bubble = time_pipeline(q, c).bubble_s;
                        INFO(d.name << " p=" << p << " m=" << m << " v=" << v << " F=" << c.F << " B=" << c.B << " W=" << c.W << " FB=" << c.FB
                                    << " p2p=" << c.p2p_s);
                        CHECK(bound <= bubble);
                        ++checked;
                        positive += bound > 0;
                    }
                }
    CHECK(checked > 1000);
    CHECK(positive > checked / 2);  // the bound says something on most schedules
}

TEST_CASE("bubble lower bound: exact for 1F1B and GPipe, (p − 1)(F + B)", "[pipeline]") {
    for (schedule_kind k : {schedule_kind::one_f_one_b, schedule_kind::gpipe})
        for (std::int64_t p : {2, 4, 8})
            for (std::int64_t m : {1, 3, 8, 32}) {
                const schedule_request q{k, p, m, 1};
                pipeline_costs c;
                c.F = 0.7, c.B = 1.9, c.W = 0.6, c.p2p_s = 0.05;
                const double bound = bubble_lower_bound(bubble_bound_of(generate_schedule(q)), c);
                INFO(to_string(k) << " p=" << p << " m=" << m);
                CHECK(bound == Approx((p - 1) * (c.F + c.B)).epsilon(1e-9));  // less the rounding allowance
                CHECK(bound <= time_pipeline(q, c).bubble_s);
            }
}
