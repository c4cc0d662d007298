// Closed-form pipeline shapes: the in-flight counts per rank against the closed forms they cite,
// and the per-rank function the planner uses against the whole shape.
#include <catch2/catch.hpp>

#include "tslab/pipeline_cost_model.hpp"
#include "tslab/schedule_shape.hpp"

using namespace tslab;

TEST_CASE("in-flight counts follow the cited closed forms", "[schedule_shape]") {
    // 1F1B keeps p − r micro-batches on rank r (Narayanan et al. arXiv 2104.04473 section 2.2).
    CHECK(inflight_of(schedule_kind::one_f_one_b, 4, 1, 8, 0) == 4);
    CHECK(inflight_of(schedule_kind::one_f_one_b, 4, 1, 8, 3) == 1);
    CHECK(inflight_of(schedule_kind::one_f_one_b, 4, 1, 2, 0) == 2);  // never more than m
    // GPipe keeps all m.
    CHECK(inflight_of(schedule_kind::gpipe, 4, 1, 8, 2) == 8);
    // Interleaved, rank 0: (v−1)p + 2(p−1) + 1 chunks; p = 4, v = 2: 4 + 6 + 1 = 11.
    CHECK(inflight_of(schedule_kind::interleaved, 4, 2, 8, 0) == 11);
    // ZB-H1 p, ZB-H2 2p − 1 (arXiv 2401.10241 Table 1) on every rank: the deferred W keep theirs.
    CHECK(inflight_of(schedule_kind::zb_h1, 4, 1, 8, 3) == 4);
    CHECK(inflight_of(schedule_kind::zb_h2, 4, 1, 8, 1) == 7);
    CHECK(inflight_of(schedule_kind::zb_h2, 4, 1, 3, 3) == 3);
    // DualPipe PP + 1, DualPipeV 2p + 1 (DualPipe README).
    CHECK(inflight_of(schedule_kind::dualpipe, 4, 1, 8, 3) == 5);
    CHECK(inflight_of(schedule_kind::dualpipev, 4, 1, 8, 3) == 9);
}

TEST_CASE("closed_form_shape uses inflight_of for every rank", "[schedule_shape][planner]") {
    std::int64_t checked = 0;
    for (int k = 0; k <= static_cast<int>(schedule_kind::dualpipev); ++k) {
        const auto kind = static_cast<schedule_kind>(k);
        for (std::int64_t pp = 1; pp <= 16; ++pp)
            for (std::int64_t v = 1; v <= (kind == schedule_kind::interleaved ? 4 : 1); ++v)
                for (std::int64_t m = 1; m <= 40; ++m) {
                    const pipeline_shape shape = closed_form_shape(kind, pp, v, m);
                    REQUIRE(static_cast<std::int64_t>(shape.inflight.size()) == pp);
                    for (std::int64_t r = 0; r < pp; ++r, ++checked)
                        CHECK(shape.inflight[static_cast<std::size_t>(r)] == inflight_of(kind, pp, v, m, r));
                }
    }
    CHECK(checked > 10000);
}

TEST_CASE("closed-form in-flight counts equal the simulated peaks (planner and report memory agree)", "[schedule_shape][planner]") {
    // The planner sizes memory with inflight_of; the report with the simulator's peaks.
    std::int64_t checked = 0;
    for (int k = 0; k <= static_cast<int>(schedule_kind::dualpipev); ++k)
        for (std::int64_t pp = 2; pp <= 8; ++pp)
            for (std::int64_t m = 1; m <= 24; ++m) {
                const schedule_request q{static_cast<schedule_kind>(k), pp, m, static_cast<schedule_kind>(k) == schedule_kind::interleaved ? 2 : 1};
                pipeline_timing t;
                try {
                    t = time_pipeline(q, {1.0, 2.0, 1.0, 3.0, 0.0});
                } catch (const std::exception&) {
                    continue;  // the schedule's preconditions (m, pp) do not hold
                }
                if (!t.simulated) continue;
                for (std::int64_t r = 0; r < pp; ++r, ++checked)
                    CHECK(t.peak_inflight[static_cast<std::size_t>(r)] == inflight_of(q.kind, pp, q.vpp, m, r));
            }
    CHECK(checked > 1000);
}
