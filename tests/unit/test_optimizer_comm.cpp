// Adam vs Muon state bytes and Muon's Newton–Schulz gather bytes (optimizer_comm.hpp), closed forms.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>

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
    const scenario s = parse_scenario({{"model", "deepseek-v3"},
                                       {"parallel", {{"dp", 32}, {"ep", 8}, {"pp", 4}, {"zero", 1}}},
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
    const scenario plain = parse_scenario(
        {{"model", "deepseek-v3"}, {"parallel", {{"dp", 32}, {"ep", 8}, {"pp", 4}}}, {"training", {{"global_batch", 128}, {"optimizer", "muon"}}}});
    REQUIRE(optimizer_compare_of(plain).expert.whole_elems == 0);
}

namespace {

// The definition, matrix by matrix: each rank r holds [r·slice, (r+1)·slice) of the flattened
// buffer and fetches, of every matrix its slice overlaps, the part it does not hold.
std::vector<double> fetched_per_rank(const std::vector<double>& sizes, std::int64_t ranks) {
    double total = 0;
    for (double m : sizes) total += m;
    const double slice = total / static_cast<double>(ranks);
    std::vector<double> got(static_cast<std::size_t>(ranks), 0.0);
    double start = 0;
    for (double m : sizes) {
        for (std::int64_t r = 0; r < ranks; ++r) {
            const double lo = std::max(start, static_cast<double>(r) * slice), hi = std::min(start + m, static_cast<double>(r + 1) * slice);
            // An overlap of a rounding error (a matrix ending on a boundary) is no overlap.
            if (hi - lo > 1e-9 * slice) got[static_cast<std::size_t>(r)] += m - (hi - lo);
        }
        start += m;
    }
    return got;
}

}  // namespace

TEST_CASE("Muon gather over repeated blocks equals the matrix-by-matrix definition", "[optimizer_comm]") {
    // Patterns of integer sizes repeated, ranks from 2 to 37: the blocks' boundary walk against every
    // matrix tested against every rank.
    std::uint32_t state = 7;
    const auto rand = [&](std::uint32_t n) { return ((state = state * 1664525u + 1013904223u) >> 8) % n; };
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<matrix_block> blocks;
        std::vector<double> flat;
        for (int b = 0, nb = 1 + static_cast<int>(rand(3)); b < nb; ++b) {
            matrix_block blk{.pattern = {}, .repeats = 1 + static_cast<std::int64_t>(rand(40))};
            for (int i = 0, np = static_cast<int>(rand(4)); i < np; ++i) blk.pattern.push_back(1 + static_cast<double>(rand(5000)));
            for (std::int64_t r = 0; r < blk.repeats; ++r) flat.insert(flat.end(), blk.pattern.begin(), blk.pattern.end());
            blocks.push_back(blk);
        }
        const std::int64_t ranks = 2 + rand(36);
        const muon_gather g = muon_gather_blocks(blocks, ranks);
        if (flat.empty()) {
            CHECK(g.owned_max_elems == 0);
            continue;
        }
        const std::vector<double> want = fetched_per_rank(flat, ranks);
        const double total = std::accumulate(flat.begin(), flat.end(), 0.0);
        CHECK(g.owned_max_elems == Approx(*std::max_element(want.begin(), want.end())).margin(1e-6 * total));
        CHECK(g.owned_mean_elems == Approx(std::accumulate(want.begin(), want.end(), 0.0) / static_cast<double>(ranks)).margin(1e-6 * total));
        CHECK(g.whole_elems == Approx(total * static_cast<double>(ranks - 1) / static_cast<double>(ranks)));
    }
}
