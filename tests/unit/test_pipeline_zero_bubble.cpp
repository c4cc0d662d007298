// The zero-bubble handcrafted schedules against the paper: ZB-H2 (Qi et al. arXiv 2401.10241
// section 3.1, Figure 3 and Table 1) over a grid of (p, m, F, B, W).
#include <catch2/catch.hpp>

#include <algorithm>

#include "tslab/pipeline_sim.hpp"
#include "tslab/schedule_io.hpp"
#include "pipeline_checks.hpp"

using namespace tslab;

namespace {

schedule_run run_zb(schedule_kind k, std::int64_t p, std::int64_t m, double F, double B, double W) {
    schedule_spec spec;
    spec.request.kind = k;
    spec.request.ranks = p;
    spec.request.microbatches = m;
    spec.costs.F = F, spec.costs.B = B, spec.costs.W = W;
    return run_schedule(spec);
}

}  // namespace

// Section 3.1: ZB-H2 adds F passes to the warm-up and reorders the W passes at the tail, "which
// changes the layout from trapezoid into a parallelogram, eliminating all the bubbles"; Table 1
// gives its bubble as (p − 1)(T_F + T_B − 2T_W) (the paper's T_B is our input-gradient I = B − W)
// and its peak memory as 2p − 1 micro-batches. With T_F = T_B = T_W = t that bubble is 0: no rank
// idles between its first op and its last. The parallelogram still starts rank r at r·t (its first
// F needs r forwards upstream), so makespan = m(F + B) + (p − 1)F; the idle the paper removes is the
// one inside each rank's span, which is what back-to-back iterations pay once the optimizer step
// no longer synchronises the ranks (section 4, post-validation).
TEST_CASE("ZB-H2: F = I = W and m ≥ 2p − 1 leave no rank idle inside its span — peak 2p − 1") {
    for (std::int64_t p : {2, 3, 4, 6, 8})  // ZB-H2 needs p ≥ 2 (schedule_table.hpp min_pp)
        for (std::int64_t m : {2 * p - 1, 2 * p, 3 * p, 4 * p + 1})
            for (double t : {1.0, 0.5, 2.5}) {
                INFO("p=" << p << " m=" << m << " t=" << t);
                const auto r = run_zb(schedule_kind::zb_h2, p, m, t, 2 * t, t);  // I = B − W = t
                check_no_idle_inside_spans(r.timeline, 3.0 * m * t);
                CHECK(r.timeline.makespan_s == Approx(3.0 * m * t + (p - 1) * t));
                CHECK(r.timeline.ranks[0].peak_inflight == 2 * p - 1);  // Table 1: (2p − 1) M_B
                for (const auto& x : r.timeline.ranks) CHECK(x.peak_inflight <= 2 * p - 1);
            }
}

// The same grid for ZB-H1 shows what ZB-H2 buys: ZB-H1's trapezoid keeps Table 1's bubble
// (p − 1)(T_F + T_B − T_W) = (p − 1)t inside rank 0's span, with the 1F1B memory of p micro-batches.
TEST_CASE("ZB-H1 keeps (p − 1)t of idle inside rank 0's span where ZB-H2 has none") {
    for (std::int64_t p : {2, 3, 4, 8})
        for (std::int64_t m : {2 * p - 1, 3 * p})
            for (double t : {1.0, 0.5}) {
                INFO("p=" << p << " m=" << m << " t=" << t);
                const auto h1 = run_zb(schedule_kind::zb_h1, p, m, t, 2 * t, t);
                const auto& x = h1.timeline.ranks[0];
                CHECK(x.span_s - x.busy_s == Approx((p - 1) * t));
                CHECK(x.peak_inflight == p);
            }
}

// Fewer micro-batches than the warm-up: every rank still validates and holds at most m.
TEST_CASE("ZB-H2 with m < 2p − 1 stays valid and holds at most m micro-batches") {
    for (std::int64_t p : {2, 4, 8})
        for (std::int64_t m = 1; m < 2 * p - 1; ++m) {
            INFO("p=" << p << " m=" << m);
            const auto r = run_zb(schedule_kind::zb_h2, p, m, 1.0, 2.0, 1.0);
            CHECK(r.timeline.ranks[0].peak_inflight == m);
        }
}
