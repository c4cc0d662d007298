// L8 numerics: the recipe table, the FP8 speed-up per GPU and the block-scaling bytes (numerics.hpp).
#include <catch2/catch.hpp>

#include "tslab/compute.hpp"
#include "tslab/numerics.hpp"
#include "tslab/numerics_section.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

std::string dtype_of(const numerics_report& r, const std::string& role) {
    for (const auto& row : r.rows)
        if (row.role == role) return row.dtype;
    return "missing";
}

}  // namespace

TEST_CASE("Recipe table rows: storage, GEMM input, accumulate, update", "[numerics]") {
    // DeepSeek-V3 (arXiv 2412.19437 section 3.3): FP8 GEMM inputs, fp32 accumulation and master
    // weights, BF16 moments.
    const numerics_report f8 =
        describe_numerics(parse_scenario({{"model", "llama3-8b"}, {"cluster", "dgx-h100"}, {"training", {{"precision", "fp8-mixed"}}}}));
    CHECK(dtype_of(f8, "GEMM input") == "fp8 e4m3");
    CHECK(dtype_of(f8, "GEMM accumulate") == "fp32");
    CHECK(dtype_of(f8, "weight update") == "fp32");
    CHECK(dtype_of(f8, "optimizer states") == "bf16");
    CHECK(f8.rows.size() == 9);
    CHECK(dtype_of(f8, "grads (DP reduce)") == "fp32");
    const numerics_report bf = describe_numerics(parse_scenario({{"model", "llama3-8b"}}));
    CHECK(dtype_of(bf, "GEMM input") == "bf16");
    CHECK(bf.weight_scale_bytes == 0);
    CHECK(bf.fp8_speedup == 1);
}

TEST_CASE("FP8 speed-up comes from the GPU's FP8 and BF16 curves, 1 without FP8 tensor cores", "[numerics]") {
    const json f8 = {{"precision", "fp8-mixed"}};
    const scenario h100 = parse_scenario({{"cluster", "dgx-h100"}, {"training", f8}});
    const scenario a100 = parse_scenario({{"cluster", "dgx-a100-80gb"}, {"training", f8}});
    // Below the MAMF ceilings' ratio (H100 SXM FP8 1402.6 / BF16 794.5 TFLOP/s) and the datasheet's 2×.
    CHECK(fp8_speedup(h100) < 1402.6 / 794.5);
    CHECK(fp8_speedup(h100) > 1.3);
    CHECK(describe_numerics(h100).fp8_speedup == fp8_speedup(h100));
    CHECK(fp8_speedup(a100) == 1);
    const numerics_report r = describe_numerics(parse_scenario({{"cluster", "dgx-a100-80gb"}, {"training", {{"precision", "fp8-mixed"}}}}));
    CHECK_THAT(r.notes, Catch::Contains("no FP8 tensor cores"));
}

TEST_CASE("Block scaling: one fp32 per 1×128 activation tile and per 128×128 weight block", "[numerics]") {
    CHECK(block_scale_bytes(7168, 7168, 128, 128) == 56.0 * 56 * 4);
    CHECK(block_scale_bytes(4096, 7168, 1, 128) == 4096.0 * 56 * 4);
    CHECK(block_scale_bytes(100, 200, 128, 128) == 1 * 2 * 4);  // partial blocks round up
    const numerics_report r =
        describe_numerics(parse_scenario({{"model", "llama3-8b"}, {"cluster", "dgx-h100"}, {"training", {{"precision", "fp8-mixed"}}}}));
    // Activation scales add 4/128 = 3.125% to FP8 GEMM inputs whose k is a multiple of 128.
    CHECK(r.activation_scale_bytes / r.activation_fp8_bytes == Approx(4.0 / 128));
    // Weight scales of Llama 3 8B: per layer qkv 4096×6144, out 4096×4096, up 4096×28672, down 14336×4096.
    const double per_layer = 4 * (32.0 * 48 + 32.0 * 32 + 32.0 * 224 + 112.0 * 32);
    CHECK(r.weight_scale_bytes == Approx(32 * per_layer));
}

TEST_CASE("FP8 cast kernels: bytes read + written / HBM bandwidth, a named step term only under FP8", "[numerics]") {
    // Llama 3 8B (arXiv 2407.21783 Table 3: 32 layers, hidden 4096, FFN 14336, 8 KV heads of 128):
    // the FP8 GEMM inputs of one layer for 4096 tokens are QKV (K = 4096), attention output
    // (K = 4096), MLP up (K = 4096) and down (K = 14336): 4096 × 26,624 = 109,051,904 elements.
    // DeepSeek-V3 blockwise scaling (arXiv 2412.19437 section 3.3.1): one fp32 per 1×128 tile,
    // 4096 × 208 = 851,968 scales. Cast: read bf16 (2 B), write fp8 (1 B) + scales (4 B):
    // 3 × 109,051,904 + 4 × 851,968 = 330,563,584 B per layer and micro-batch.
    auto run = [](const char* recipe, const char* cluster) {
        return build_report(parse_scenario({{"model", "llama3-8b"},
                                            {"cluster", {{"preset", cluster}, {"gpu_speed_cv", 0}}},
                                            {"training", {{"seq_len", 4096}, {"global_batch", 4}, {"precision", recipe}}}}));
    };
    const double per_layer = 3.0 * 109051904 + 4.0 * 851968;
    REQUIRE(per_layer == 330563584.0);
    const auto gemms = layer_forward_work(run("fp8-mixed", "dgx-h100").input, false).gemms;
    REQUIRE(fp8_cast_of(gemms, active_scaling(run("fp8-mixed", "dgx-h100").input.training.precision)).bytes == per_layer);
    const report r = run("fp8-mixed", "dgx-h100");
    // H100 SXM5 HBM3: 3.35 TB/s (NVIDIA H100 datasheet, the preset's hbm_bandwidth_Bps); 32 layers.
    const double per_microbatch = 32 * per_layer / 3.35e12;  // 3.1576e-3 s
    REQUIRE(r.compute.fp8_cast_s == Approx(per_microbatch));
    REQUIRE(r.compute.microbatches == 4);
    double seg = -1, l8 = -1;
    for (const auto& g : r.step.segments)
        if (g.id == "fp8_cast") {
            seg = g.time_s;
            REQUIRE(g.ledger == "L8");
        }
    for (const auto& l : r.step.ledgers)
        if (l.id == "L8") l8 = l.time_s;
    REQUIRE(seg == Approx(4 * per_microbatch));
    REQUIRE(l8 == Approx(4 * per_microbatch));
    // The numerics section's current row reports the same cast bytes.
    const numerics_section n = numerics_section_of(r.input, r.compute);
    for (const auto& row : n.rows)
        if (row.current) REQUIRE(row.cast_bytes == Approx(per_layer));
    // BF16 GEMMs, or FP8 asked of a GPU without FP8 tensor cores (A100): no cast term.
    REQUIRE(run("bf16-mixed", "dgx-h100").compute.fp8_cast_step_s == 0);
    REQUIRE(run("fp8-mixed", "dgx-a100-80gb").compute.fp8_cast_step_s == 0);
}
