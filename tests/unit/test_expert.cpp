// L6 expert: payload closed forms, capacity and drops, the expected busiest rank against a
// fixed-seed Monte Carlo of uniform top-k routing, and redundant-expert packing (expert.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "tslab/errors.hpp"
#include "tslab/expert.hpp"

using namespace tslab;

namespace {

scenario v3(json training, json parallel = {{"dp", 64}, {"ep", 64}}) {
    json model = {{"preset", "deepseek-v3"}};
    return parse_scenario({{"model", model}, {"parallel", parallel}, {"training", training}});
}

// Mean over `trials` of the busiest rank's token-expert pairs when T tokens each pick k distinct
// experts of E uniformly (partial Fisher-Yates), experts contiguous over ep ranks.
double monte_carlo_busiest(long T, long k, long E, long ep, int trials) {
    std::mt19937_64 rng(20250101);
    std::vector<int> perm(static_cast<std::size_t>(E));
    double acc = 0;
    for (int tr = 0; tr < trials; ++tr) {
        std::vector<long> load(static_cast<std::size_t>(ep), 0);
        for (long t = 0; t < T; ++t) {
            for (long i = 0; i < E; ++i) perm[static_cast<std::size_t>(i)] = static_cast<int>(i);
            for (long j = 0; j < k; ++j) {
                std::uniform_int_distribution<long> pick(j, E - 1);
                std::swap(perm[static_cast<std::size_t>(j)], perm[static_cast<std::size_t>(pick(rng))]);
                ++load[static_cast<std::size_t>(perm[static_cast<std::size_t>(j)] / (E / ep))];
            }
        }
        acc += static_cast<double>(*std::max_element(load.begin(), load.end()));
    }
    return acc / trials;
}

}  // namespace

TEST_CASE("Dispatch and combine payloads: tokens × top_k × hidden × bytes", "[expert]") {
    const moe_layer_traffic bf = moe_traffic(v3({{"seq_len", 4096}, {"global_batch", 128}}));
    CHECK(bf.tokens == 4096);
    CHECK(bf.routed == 4096 * 8);
    CHECK(bf.dispatch_bytes == 4096.0 * 8 * 7168 * 2);
    CHECK(bf.combine_bytes == 4096.0 * 8 * 7168 * 2);
    CHECK(bf.remote_fraction == Approx(63.0 / 64));
    // FP8 dispatch (DeepSeek-V3 section 3.3): 1 byte per element plus one fp32 scale per 128.
    const moe_layer_traffic f8 = moe_traffic(v3({{"seq_len", 4096}, {"global_batch", 128}, {"precision", "fp8-mixed"}}));
    CHECK(f8.dispatch_bytes == Approx(4096.0 * 8 * 7168 * (1 + 4.0 / 128)));
    CHECK(f8.combine_bytes == bf.combine_bytes);
}

TEST_CASE("Capacity factor: padded slots are computed, overflow is dropped", "[expert]") {
    json model = {
        {"preset", "deepseek-v3"},
        {"moe",
         {{"experts", 256}, {"top_k", 8}, {"shared_experts", 1}, {"expert_ffn_hidden", 2048}, {"dense_layers", 3}, {"capacity_factor", 1.25}}}};
    const scenario s =
        parse_scenario({{"model", model}, {"parallel", {{"dp", 8}, {"ep", 8}}}, {"training", {{"seq_len", 4096}, {"global_batch", 16}}}});
    const moe_layer_traffic t = moe_traffic(s);
    // Mean pairs per expert: 4096 · 8 ranks · 8 / 256 = 1024; capacity ceil(1.25 · 1024) = 1280.
    CHECK(t.capacity == 1280);
    CHECK(t.computed == 1280.0 * 32);
    CHECK(t.padding_fraction == Approx(0.25));
    // sd = sqrt(32768 · (1/32)(31/32)) = 31.5; capacity is 8 sd above the mean: nothing is dropped.
    CHECK(t.dropped_fraction < 1e-12);
    CHECK(expert_ledger(s, {}).imbalance_used == Approx(1.25));
}

TEST_CASE("Expected max of n standard normals (tabulated values)", "[expert]") {
    // Known values: n = 2: 1/sqrt(pi) = 0.5642; n = 10: 1.5388; n = 100: 2.5076 (Tippett 1925).
    CHECK(expected_max_std_normal(2) == Approx(0.5641896).epsilon(1e-5));
    CHECK(expected_max_std_normal(10) == Approx(1.538753).epsilon(1e-5));
    CHECK(expected_max_std_normal(100) == Approx(2.507594).epsilon(1e-5));
}

TEST_CASE("Busiest rank of uniform top-k routing matches a fixed-seed Monte Carlo", "[expert]") {
    // Normal approximation of a sum of hypergeometric counts: within 0.5% of the simulated busiest
    // rank and 6% of its excess over the mean (the remaining gap is the skew the normal lacks).
    struct c_ {
        long T, k, E, ep;
    };
    for (const c_ c : {c_{4096, 8, 256, 32}, c_{4096, 2, 64, 8}}) {
        const expert_balance b = uniform_routing_balance(static_cast<double>(c.T), c.k, c.E, c.ep);
        const double mc = monte_carlo_busiest(c.T, c.k, c.E, c.ep, 300);
        INFO("E " << c.E << " ep " << c.ep << ": formula " << b.busiest_load << ", Monte Carlo " << mc);
        CHECK(b.mean_load == Approx(static_cast<double>(c.T * c.k) / c.ep));
        CHECK(b.busiest_load == Approx(mc).epsilon(0.005));
        CHECK((b.busiest_load - b.mean_load) == Approx(mc - b.mean_load).epsilon(0.06));
    }
}

TEST_CASE("Redundant experts: static shape, hottest expert replicated, busiest rank drops", "[expert]") {
    // Loads 6,2,2,2 on 2 ranks: contiguous {6,2} = 8. Two redundant slots go to expert 0 (6 → 3+3,
    // then 3 > 2 → 2+2+2); six pieces of 2 in 3 slots per rank: 6 per rank = total / ep.
    const std::vector<double> loads = {6, 2, 2, 2};
    CHECK(contiguous_busiest(loads, 2) == 8);
    CHECK(eplb_busiest(loads, 2, 0) == 8);  // LPT of {6,2,2,2}: 6 | 2+2+2
    CHECK(eplb_busiest(loads, 2, 2) == Approx(6));
    CHECK_THROWS_WITH(eplb_busiest(loads, 2, 1), Catch::Contains("not a multiple of ep = 2"));
    CHECK_THROWS_WITH(eplb_busiest(loads, 2, 6), Catch::Contains("exceeds the 4 experts"));
}

TEST_CASE("Scenario ledger: uniform imbalance, a given one, and redundancy shrinking it", "[expert]") {
    const scenario s = v3({{"seq_len", 4096}, {"global_batch", 128}}, {{"dp", 32}, {"ep", 32}});
    const expert_report plain = expert_ledger(s, {});
    const expert_balance direct = uniform_routing_balance(4096.0 * 32, 8, 256, 32);
    CHECK(plain.balance.imbalance == Approx(direct.imbalance));
    CHECK(plain.imbalance_used > 1);
    const expert_report given = expert_ledger(s, {1.5, 0});
    CHECK(given.imbalance_used == 1.5);
    const expert_report eplb = expert_ledger(s, {1.5, 32});
    CHECK(eplb.imbalance_used < 1.5);
    CHECK(eplb.imbalance_used >= 1);
    CHECK_THROWS_WITH(expert_ledger(s, {0.5, 0}), Catch::Contains("expert.imbalance"));
}
