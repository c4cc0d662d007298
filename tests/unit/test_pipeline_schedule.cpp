// Schedule generators: structure, phase counts from the sources, preconditions and the validator.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tslab/errors.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/schedule_rules.hpp"

using namespace tslab;

namespace {

pipeline_schedule make(schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v = 1) {
    schedule_request q;
    q.kind = k;
    q.ranks = p;
    q.microbatches = m;
    q.vpp = v;
    return generate_schedule(q);
}

std::string error_of(schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v = 1) {
    try {
        make(k, p, m, v);
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

std::int64_t count(const pipeline_schedule& s, op_kind k) {
    std::int64_t n = 0;
    for (const auto& ops : s.rank_ops)
        for (const auto& o : ops) n += o.kind == k;
    return n;
}

}  // namespace

TEST_CASE("every generated schedule validates over a grid of p, m, v") {
    for (std::int64_t p : {1, 2, 3, 4, 6, 8}) {
        for (std::int64_t mult : {1, 2, 3}) {
            const std::int64_t m = 2 * p * mult;  // meets every precondition (m ≥ 2p, even, p | m)
            for (const schedule_desc& d : schedule_rows) {
                const auto kind = d.kind;
                const std::int64_t v = d.chunks == chunks_rule::vpp ? 2 + mult % 2 : 1;
                if (broken_schedule_rule(kind, p, m, v) != schedule_rule::ok) continue;  // e.g. DualPipe on odd p
                INFO(to_string(kind) << " p=" << p << " m=" << m << " v=" << v);
                const auto s = make(kind, p, m, v);
                REQUIRE_NOTHROW(validate_schedule(s));
                // Every micro-batch runs one forward per stage (FB pairs carry one forward each).
                CHECK(count(s, op_kind::F) + count(s, op_kind::FB) == m * s.stages);
                // Every split backward has its W.
                CHECK(count(s, op_kind::I) == count(s, op_kind::W));
            }
        }
    }
}

TEST_CASE("1F1B warm-up is min(p − r − 1, m) forwards (Narayanan et al. arXiv 2104.04473 section 2.2)") {
    for (std::int64_t p : {2, 4, 8})
        for (std::int64_t m : {1, 3, 8, 16}) {
            const auto s = make(schedule_kind::one_f_one_b, p, m);
            for (std::int64_t r = 0; r < p; ++r) {
                const auto& ops = s.rank_ops[static_cast<std::size_t>(r)];
                const auto first_b = std::find_if(ops.begin(), ops.end(), [](const pipeline_op& o) { return o.kind == op_kind::B; });
                // warm-up forwards, then the first steady-state forward, then the first B
                const std::int64_t warm = std::min(p - r - 1, m);
                CHECK(first_b - ops.begin() == std::min(warm + 1, m));
            }
        }
}

TEST_CASE("interleaved warm-up is 2(p − r − 1) + (v − 1)p forwards (Megatron-LM interleaved schedule)") {
    const std::int64_t p = 4, v = 3, m = 8;
    const auto s = make(schedule_kind::interleaved, p, m, v);
    for (std::int64_t r = 0; r < p; ++r) {
        const auto& ops = s.rank_ops[static_cast<std::size_t>(r)];
        const auto first_b = std::find_if(ops.begin(), ops.end(), [](const pipeline_op& o) { return o.kind == op_kind::B; });
        CHECK(first_b - ops.begin() == 2 * (p - r - 1) + (v - 1) * p + 1);
    }
}

TEST_CASE("Kimi K2's extra warm-up adds forwards before the first backward and still validates") {
    schedule_request q;
    q.kind = schedule_kind::interleaved;
    q.ranks = 4;
    q.microbatches = 8;
    q.vpp = 2;
    q.extra_warmup = 2;
    const auto s = generate_schedule(q);
    REQUIRE_NOTHROW(validate_schedule(s));
    const auto& ops = s.rank_ops[3];
    const auto first_b = std::find_if(ops.begin(), ops.end(), [](const pipeline_op& o) { return o.kind == op_kind::B; });
    CHECK(first_b - ops.begin() == 0 + (2 - 1) * 4 + 2 + 1);  // Megatron's 2(p−r−1)+(v−1)p = 4 for r = 3, +2 extra
}

TEST_CASE("DualPipe phase 1 is 2(N − h − 1) forwards of chunk 0 (dualpipe.py step(), Step 1: nF0)") {
    const std::int64_t p = 8, n = p / 2;
    const auto s = make(schedule_kind::dualpipe, p, 32);
    for (std::int64_t r = 0; r < p; ++r) {
        const std::int64_t h = std::min(r, p - 1 - r);
        const auto& ops = s.rank_ops[static_cast<std::size_t>(r)];
        std::int64_t lead = 0;
        const int home = r < n ? 0 : 1;  // phase 0 is chunk 0 on the first half, chunk 1 on the second
        while (ops[static_cast<std::size_t>(lead)].kind == op_kind::F && ops[static_cast<std::size_t>(lead)].chunk == home) ++lead;
        // Step 1 forwards, plus the first forward of Step 2 (also phase 0)
        CHECK(lead == 2 * (n - h - 1) + 1);
    }
}

TEST_CASE("DualPipeV main step runs M − 2N + r + 1 overlapped pairs per half (dualpipev.py Step 4)") {
    const std::int64_t p = 4, m = 12;
    const auto s = make(schedule_kind::dualpipev, p, m);
    for (std::int64_t r = 0; r < p; ++r) {
        std::int64_t fb = 0;
        for (const auto& o : s.rank_ops[static_cast<std::size_t>(r)]) fb += o.kind == op_kind::FB;
        // Step 4 has 2 pairs per round (one fewer on the last rank's first round), Step 5 one per round.
        const std::int64_t step4 = m - 2 * p + r + 1, step5 = p - r - 1;
        CHECK(fb == 2 * step4 - (r == p - 1 ? 1 : 0) + step5);
    }
}

TEST_CASE("preconditions name the rule") {
    CHECK_THAT(error_of(schedule_kind::dualpipe, 3, 12), Catch::Contains("even number of ranks"));
    CHECK_THAT(error_of(schedule_kind::dualpipe, 4, 6), Catch::Contains("m ≥ 2·ranks = 8"));
    CHECK_THAT(error_of(schedule_kind::dualpipe, 4, 9), Catch::Contains("must be even"));
    CHECK_THAT(error_of(schedule_kind::dualpipev, 4, 7), Catch::Contains("m ≥ 2·ranks = 8"));
    CHECK_THAT(error_of(schedule_kind::interleaved, 4, 6, 2), Catch::Contains("divisible by ranks = 4"));
    CHECK_THAT(error_of(schedule_kind::interleaved, 4, 8, 1), Catch::Contains("vpp ≥ 2"));
    CHECK_THAT(error_of(schedule_kind::one_f_one_b, 4, 8, 2), Catch::Contains("vpp: 2 needs schedule = interleaved, not 1f1b"));
    CHECK_THAT(error_of(schedule_kind::zbv, 1, 8), Catch::Contains("schedule: zbv is a pipeline schedule and needs ranks ≥ 2"));
    CHECK_THAT(error_of(schedule_kind::one_f_one_b, 0, 8), Catch::Contains("ranks: must be at least 1"));
    CHECK_THAT(error_of(schedule_kind::one_f_one_b, 4, -3), Catch::Contains("microbatches: must be at least 1"));
}

TEST_CASE("absurd sizes hit the op cap before anything is allocated") {
    const std::string e = error_of(schedule_kind::dualpipev, 64, 1'000'000'000);
    CHECK_THAT(e, Catch::Contains("over the cap of 2000000 ops"));
    CHECK_THAT(error_of(schedule_kind::interleaved, 64, 1'000'000'000'000, 255), Catch::Contains("cap"));
}

TEST_CASE("the validator rejects broken schedules with the rule, deadlocks included") {
    auto s = make(schedule_kind::one_f_one_b, 2, 2);
    SECTION("a deadlock: each rank waits for the other") {
        // rank 0: F0 B0 F1 B1, rank 1: F1 B1 F0 B0 — rank 1 needs F1 from rank 0, which waits on B0.
        auto& r0 = s.rank_ops[0];
        auto& r1 = s.rank_ops[1];
        r0 = {r0[0], r0[0], r0[0], r0[0]};
        r0[1].kind = op_kind::B;
        r0[2].microbatch = 1;
        r0[3].kind = op_kind::B, r0[3].microbatch = 1;
        r1 = {r1[0], r1[0], r1[0], r1[0]};
        r1[0].microbatch = 1;
        r1[1].kind = op_kind::B, r1[1].microbatch = 1;
        r1[3].kind = op_kind::B;
        CHECK_THROWS_WITH(validate_schedule(s), Catch::Contains("deadlock"));
    }
    SECTION("a missing backward") {
        s.rank_ops[0].pop_back();
        CHECK_THROWS_WITH(validate_schedule(s), Catch::Contains("never completes its backward"));
    }
    SECTION("an op on the wrong rank") {
        s.rank_ops[0][0].stage = 1;
        CHECK_THROWS_WITH(validate_schedule(s), Catch::Contains("that stage runs on rank 1"));
    }
    SECTION("a backward before its forward") {
        std::swap(s.rank_ops[1][0], s.rank_ops[1][1]);
        CHECK_THROWS_WITH(validate_schedule(s), Catch::Contains("backward before its forward"));
    }
}
