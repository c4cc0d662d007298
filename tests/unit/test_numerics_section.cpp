// The numerics section (numerics_section.hpp): scale-tensor bytes of each recipe from its tile sizes
// (closed form), availability per GPU, and the FP8 rows' GEMM time from fp8_speedup's curves.
#include <catch2/catch.hpp>

#include "tslab/numerics_section.hpp"

using namespace tslab;

namespace {

scenario on(const char* cluster, const char* recipe = "bf16-mixed") {
    return parse_scenario(
        {{"model", {{"preset", "llama3-8b"}}}, {"cluster", {{"preset", cluster}}}, {"training", {{"seq_len", 4096}, {"precision", recipe}}}});
}

const scaling_row& row(const numerics_section& n, const char* name) {
    for (const auto& r : n.rows)
        if (r.name == name) return r;
    FAIL("no row " << name);
    return n.rows.front();
}

}  // namespace

TEST_CASE("scale counts from the tile sizes", "[numerics_section]") {
    // DeepSeek-V3 section 3.3.1: activations per 1×128 tile, weights per 128×128 block.
    REQUIRE(block_scale_count(4096, 7168, 1, 128) == 4096.0 * 56);
    REQUIRE(block_scale_count(7168, 18432, 128, 128) == 56.0 * 144);
    REQUIRE(block_scale_count(7168, 100, 128, 128) == 56.0 * 1);  // a partial block still has a scale
    // MX (OCP MX v1.0): one E8M0 scale per 32 consecutive elements.
    REQUIRE(block_scale_count(4096, 4096, 1, 32) == 4096.0 * 128);
    REQUIRE(block_scale_count(4096, 4096, 0, 0) == 1);  // per-tensor
}

TEST_CASE("scale bytes per FP8 input byte: 4/128 blockwise, 1/32 MXFP8", "[numerics_section]") {
    const scenario s = on("dgx-b200");
    const numerics_section n = numerics_section_of(s, estimate_compute(s));
    // llama3-8b's GEMM inputs have K = 4096 or 14336, multiples of 128 and 32.
    const scaling_row& block = row(n, "fp8-blockwise");
    REQUIRE(block.activation_scale_bytes / block.gemm_input_bytes == Approx(4.0 / 128));
    const scaling_row& mx = row(n, "mxfp8");
    REQUIRE(mx.activation_scale_bytes / mx.gemm_input_bytes == Approx(1.0 / 32));
    REQUIRE(mx.available);
    // Weights: 128×128 fp32 blocks = 4 B per 16,384 elements of the layer matrices.
    const scaling_row& tensor = row(n, "fp8-tensorwise");
    REQUIRE(tensor.weight_scale_bytes < block.weight_scale_bytes);
    REQUIRE(block.input_bytes_saved == Approx(block.gemm_input_bytes - block.activation_scale_bytes));
}

TEST_CASE("FP8 rows: GEMM time from the per-dtype curves, availability per GPU", "[numerics_section]") {
    const scenario h = on("dgx-h100");
    const numerics_section n = numerics_section_of(h, estimate_compute(h));
    scenario f = h;
    f.training.precision.gemm = dtype::fp8;
    REQUIRE(n.fp8_speedup == Approx(fp8_speedup(f)));
    REQUIRE(n.fp8_speedup > 1);
    REQUIRE(row(n, "fp8-blockwise").gemm_s == Approx(n.eligible_gemm_bf16_s / n.fp8_speedup));
    REQUIRE_FALSE(row(n, "mxfp8").available);  // Hopper has no MX block scaling
    const scenario a = on("dgx-a100-80gb");
    const numerics_section na = numerics_section_of(a, estimate_compute(a));
    REQUIRE_FALSE(row(na, "fp8-blockwise").available);
    REQUIRE(row(na, "fp8-blockwise").gemm_saved_s == 0);
}
