// L6 routing load and the redundant-expert planner (expert_routing.hpp): uniform max = mean, a
// histogram's max/mean exactly, Zipf's cap and monotone skew, and the planner never raising the max.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "tslab/errors.hpp"
#include "tslab/expert.hpp"
#include "tslab/expert_routing.hpp"

using namespace tslab;

namespace {

double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }
double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }

routing_spec kind(const char* k, double skew = 1, std::vector<double> h = {}) { return {k, skew, std::move(h)}; }

scenario v3(json routing, std::int64_t redundant = 0) {
    json moe = {{"routing", routing}, {"redundant_experts", redundant}};
    return parse_scenario({{"model", {{"preset", "deepseek-v3"}}}, {"parallel", {{"dp", 64}, {"ep", 64}}}, {"training", {{"moe", moe}}}});
}

}  // namespace

TEST_CASE("uniform routing: every rank gets the mean exactly (expected loads)", "[expert_routing]") {
    const auto shares = routing_expert_shares(kind("uniform"), 256, 8, 64);
    const auto ranks = contiguous_rank_loads(shares, 64);
    REQUIRE(max_of(ranks) == Approx(mean_of(ranks)).epsilon(1e-12));
    REQUIRE(mean_of(ranks) == Approx(1.0 / 64));
}

TEST_CASE("histogram routing: max/mean is the histogram's own", "[expert_routing]") {
    // 8 experts on 4 ranks (2 each): rank sums 4, 2, 2, 0 of 8 -> max/mean = 4 / 2 = 2.
    const auto ranks = contiguous_rank_loads(routing_expert_shares(kind("histogram", 1, {4, 0, 1, 1, 1, 1, 0, 0}), 8, 2, 4), 4);
    REQUIRE(max_of(ranks) / mean_of(ranks) == Approx(2.0));
    // Through the scenario: DeepSeek-V3's 256 experts on ep = 64 (4 per rank), expert 0 loaded 5,
    // the others 1: rank 0 holds 5 + 3 = 8 of 260 -> 8 / (260 / 64) = 1.96923...
    std::vector<double> h(256, 1.0);
    h[0] = 5;
    const expert_report r = expert_ledger(v3({{"kind", "histogram"}, {"histogram", h}}), {});
    REQUIRE(r.balance.imbalance == Approx(8.0 / (260.0 / 64.0)));
    REQUIRE(r.imbalance_used == Approx(8.0 / (260.0 / 64.0)));
}

TEST_CASE("zipf: skew 0 is uniform, shares capped at 1/top_k, imbalance grows with skew", "[expert_routing]") {
    const auto flat = contiguous_rank_loads(routing_expert_shares(kind("zipf", 0), 256, 8, 64), 64);
    REQUIRE(max_of(flat) == Approx(mean_of(flat)));
    const auto hot = routing_expert_shares(kind("zipf", 3), 16, 4, 4);
    REQUIRE(std::accumulate(hot.begin(), hot.end(), 0.0) == Approx(1.0));
    REQUIRE(max_of(hot) <= 0.25 + 1e-12);  // a token picks an expert at most once: share ≤ 1/k
    double last = 1;
    for (double skew : {0.2, 0.5, 0.8, 1.2}) {
        const double now = expert_ledger(v3({{"kind", "zipf"}, {"skew", skew}}), {}).imbalance_used;
        REQUIRE(now > last);
        last = now;
    }
}

TEST_CASE("redundant experts: a hand-traced greedy packing", "[expert_routing]") {
    // Loads 8,1,1,1,1,1,1,2 on 4 ranks: static ranks 9,2,2,3. Four extra slots all go to expert 0
    // (8 -> 5 replicas of 1.6; ties keep the lower id), 12 pieces packed 3 per rank heaviest first
    // onto the least-loaded rank: 4, 4.2, 4.2, 3.6 (traced by hand from the rule in the header).
    const std::vector<double> loads = {8, 1, 1, 1, 1, 1, 1, 2};
    const redundant_plan p = pack_redundant(loads, 4, 4);
    REQUIRE(p.replicas[0] == 5);
    REQUIRE(p.busiest == Approx(4.2));
    REQUIRE(std::accumulate(p.rank_loads.begin(), p.rank_loads.end(), 0.0) == Approx(16.0));
    REQUIRE(plan_redundant_experts(loads, 4, 4).busiest == Approx(4.2));
    REQUIRE_THROWS_AS(pack_redundant(loads, 4, 3), input_error);
    // No slots: the static layout stays (ranks 8 and 2), though repacking alone would give 5 and 5.
    REQUIRE(plan_redundant_experts({4, 4, 1, 1}, 2, 0).busiest == 8);
}

TEST_CASE("redundant experts never raise the busiest rank", "[expert_routing]") {
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> load(0, 1.2);
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<double> loads(64);
        for (double& x : loads) x = load(rng);
        const double mean = std::accumulate(loads.begin(), loads.end(), 0.0) / 16;
        double last = max_of(contiguous_rank_loads(loads, 16));
        for (std::int64_t r = 0; r <= 64; r += 16) {
            const double now = plan_redundant_experts(loads, 16, r).busiest;
            REQUIRE(now <= last * (1 + 1e-12));
            REQUIRE(now >= mean * (1 - 1e-12));
            last = now;
        }
    }
}

TEST_CASE("routing fields are validated with their JSON path", "[expert_routing]") {
    auto err = [](json routing) {
        try {
            v3(routing);
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    REQUIRE_THAT(err({{"kind", "zipff"}}), Catch::Contains("training.moe.routing.kind"));
    REQUIRE_THAT(err({{"kind", "histogram"}}), Catch::Contains("training.moe.routing.histogram"));
    REQUIRE_THAT(err({{"kind", "histogram"}, {"histogram", {1, 2, 3}}}), Catch::Contains("3 loads for model.moe.experts = 256"));
    REQUIRE_THAT(err({{"kind", "histogram"}, {"histogram", {1, -2}}}), Catch::Contains("training.moe.routing.histogram[1]"));
    REQUIRE_THAT(err({{"kind", "uniform"}, {"histogram", {1}}}), Catch::Contains("set kind to"));
}
