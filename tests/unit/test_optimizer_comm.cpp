// Adam vs Muon state bytes and Muon's Newton–Schulz gather bytes (optimizer_comm.hpp), closed forms.
#include <catch2/catch.hpp>

#include "tslab/optimizer_comm.hpp"

using namespace tslab;

TEST_CASE("Muon gather: whole matrices vs the matrices one's slice touches", "[optimizer_comm]") {
    const double M = 1000;
    const std::vector<double> four(4, M);
    // 2 ranks, slices of 2M hold whole matrices: nothing to gather; gathering all: 4M·(1/2).
    const muon_gather two = muon_gather_elems(four, 2);
    REQUIRE(two.owned_max_elems == 0);
    REQUIRE(two.whole_elems == Approx(2 * M));
    // 8 ranks, each matrix cut in two: every rank fetches the other half, M/2; all: 4M·7/8.
    const muon_gather eight = muon_gather_elems(four, 8);
    REQUIRE(eight.owned_max_elems == Approx(M / 2));
    REQUIRE(eight.owned_mean_elems == Approx(M / 2));
    REQUIRE(eight.whole_elems == Approx(3.5 * M));
    // 3 ranks, slices of 4M/3: rank 0 holds M/3 of matrix 2 (fetches 2M/3), rank 1 holds 2M/3 of
    // matrices 2 and 3 (fetches M/3 + M/3), rank 2 holds M/3 of matrix 3 (fetches 2M/3).
    const muon_gather three = muon_gather_elems(four, 3);
    REQUIRE(three.owned_max_elems == Approx(2.0 / 3.0 * M));
    REQUIRE(three.owned_mean_elems == Approx(2.0 / 3.0 * M));
    REQUIRE(muon_gather_elems(four, 1).whole_elems == 0);
}

TEST_CASE("Adam keeps two moments, Muon one on hidden matrices", "[optimizer_comm]") {
    // gpt-1.7b (arXiv 2104.04473 Table 1): L = 24, h = 2304, GeLU MLP 4h: 12h² matrix params per layer.
    const scenario s = parse_scenario({{"model", {{"preset", "gpt-1.7b"}}}, {"parallel", {{"dp", 8}, {"zero", 1}}}});
    const optimizer_compare o = optimizer_compare_of(s);
    const double h = 2304, L = 24;
    REQUIRE(o.matrix_params == Approx(12 * L * h * h));
    const double b = 4;  // bf16-mixed: fp32 moments
    REQUIRE(o.adam_state_bytes == Approx(2 * o.params * b));
    REQUIRE(o.adam_state_bytes - o.muon_state_bytes == Approx(12 * L * h * h * b));
    REQUIRE(o.group == 8);
    // Whole gather: every rank fetches 7/8 of all dense matrices, in the grads dtype (bf16, 2 B).
    REQUIRE(o.whole_bytes == Approx(12 * L * h * h * 7.0 / 8.0 * 2));
    REQUIRE(o.owned_max_bytes < o.whole_bytes / 8);
}

TEST_CASE("Muon's gather covers the expert matrices over the expert-DP group", "[optimizer_comm]") {
    // DeepSeek-V3 (arXiv 2412.19437 section 4.2): 256 routed experts, SwiGLU width 2048 on hidden
    // 7168: gate+up 7168 × 4096 and down 2048 × 7168, 44,040,192 elements per expert and layer.
    // pp 4: the last stage holds 16 layers, all MoE. ep 8 → 32 local experts per layer; dp 32, ZeRO-1:
    // the expert-DP group is dp·cp·tp/(ep·etp) = 4 (Megatron-Core's expert data parallel).
    const scenario s = parse_scenario({{"model", "deepseek-v3"}, {"parallel", {{"dp", 32}, {"ep", 8}, {"pp", 4}, {"zero", 1}}},
                                       {"training", {{"global_batch", 128}, {"optimizer", "muon"}}}});
    const optimizer_compare o = optimizer_compare_of(s);
    REQUIRE(o.group == 32);
    REQUIRE(o.expert_group == 4);
    // Whole gather (Moonlight arXiv 2502.16982 section 2.3, the naive variant): (n − 1)/n of every
    // local expert matrix, 16 × 32 × 44,040,192 × 3/4 = 16,911,433,728 elements, bf16 grads (2 B).
    const double expert_elems = 16.0 * 32 * 44040192;
    REQUIRE(o.expert.whole_elems == Approx(expert_elems * 3 / 4));
    REQUIRE(o.whole_bytes == Approx((o.dense.whole_elems + 16911433728.0) * 2));
    // Slice-local (Distributed Muon): the 4 slices hold 128 experts each, cut no matrix, gather nothing.
    REQUIRE(o.expert.owned_max_elems == Approx(0).margin(1));
    REQUIRE(o.owned_max_bytes == Approx(o.dense.owned_max_elems * 2));
    // Without ZeRO nothing is sharded: no gather.
    const scenario plain = parse_scenario({{"model", "deepseek-v3"}, {"parallel", {{"dp", 32}, {"ep", 8}, {"pp", 4}}},
                                           {"training", {{"global_batch", 128}, {"optimizer", "muon"}}}});
    REQUIRE(optimizer_compare_of(plain).expert.whole_elems == 0);
}
