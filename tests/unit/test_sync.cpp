// The slowest-GPU delay (sync.hpp): Blom's expected maximum against exact normal order statistics,
// and a synchronous step that slows with the GPU count at fixed work per GPU.
#include <catch2/catch.hpp>

#include "tslab/report.hpp"
#include "tslab/sync.hpp"

using namespace tslab;

TEST_CASE("Blom's expected maximum of n standard normals, against exact values", "[sync]") {
    // Exact E[max] of n iid N(0,1): n = 2: 1/√π = 0.5642; n = 10: 1.5388; n = 100: 2.5076 (Harter
    // 1961, "Expected values of normal order statistics", Biometrika 48, Table 1). Blom's position
    // is within 5% at n = 2 and within 1% from n = 10.
    CHECK(expected_max_normal(1) == 0);
    CHECK(expected_max_normal(2) == Approx(0.5642).epsilon(0.05));
    CHECK(expected_max_normal(10) == Approx(1.5388).epsilon(0.01));
    CHECK(expected_max_normal(100) == Approx(2.5076).epsilon(0.01));
    CHECK(slowest_gpu_delay(0.02, 100) == Approx(0.02 * expected_max_normal(100)).epsilon(1e-12));
    CHECK(slowest_gpu_delay(0, 100000) == 0);
}

TEST_CASE("At fixed work per GPU the step slows as the GPUs grow: the slowest of more sets the pace", "[sync]") {
    // Weak scaling as Nemotron-4 15B's Table 2 (arXiv 2402.16819): dp 96 → 288, 4 sequences per DP rank.
    auto step = [](long dp, double cv) {
        scenario s = parse_scenario({{"model", "llama3-8b"},
                                     {"cluster", {{"preset", "dgx-h100"}, {"gpu_speed_cv", cv}}},
                                     {"parallel", {{"dp", dp}, {"tp", 8}, {"sp", true}, {"zero", 1}}},
                                     {"training", {{"seq_len", 4096}, {"global_batch", 4 * dp}}}});
        return build_report(s, 0).step;
    };
    const step_result a = step(96, 0.02), b = step(288, 0.02);
    auto segment = [](const step_result& r) {
        for (const auto& g : r.segments)
            if (g.id == "slowest_gpu") return g.time_s;
        return -1.0;
    };
    CHECK(segment(b) > segment(a));
    CHECK(segment(a) > 0);
    // Its size: compute × (1 − 1/(1 + cv·E[max of N])), N = 768 GPUs.
    const double k = 1 + 0.02 * expected_max_normal(768);
    double compute = 0;
    for (const auto& g : a.segments)
        if (g.ledger == "L3" || g.id == "slowest_gpu") compute += g.time_s;
    CHECK(segment(a) == Approx(compute * (1 - 1 / k)).epsilon(1e-9));
    CHECK(segment(step(96, 0)) == 0);
}
