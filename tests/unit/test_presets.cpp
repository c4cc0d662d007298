// Presets: every one parses, carries a source, and the datasheet numbers the course relies on (presets.hpp).
#include <catch2/catch.hpp>

#include "tslab/presets.hpp"
#include "tslab/scenario.hpp"

using namespace tslab;

TEST_CASE("Every model and cluster preset parses and names its source", "[presets]") {
    const json all = presets_json();
    for (const auto& name : model_preset_names()) {
        INFO(name);
        CHECK(all["models"][name].contains("source"));
        CHECK_NOTHROW(parse_scenario(json{{"model", name}}));
    }
    for (const auto& name : cluster_preset_names()) {
        INFO(name);
        CHECK(all["clusters"][name].contains("source"));
        CHECK_NOTHROW(parse_scenario(json{{"cluster", name}}));
    }
}

TEST_CASE("GPU datasheet figures", "[presets]") {
    // NVIDIA H100 SXM datasheet: 989 TFLOP/s dense BF16 (1979 with sparsity), 3.35 TB/s.
    const auto h100 = parse_scenario(json{{"cluster", "dgx-h100"}}).cluster;
    CHECK(h100.gpu.flops_bf16 == Approx(989e12).epsilon(0.001));
    CHECK(h100.gpu.hbm_bandwidth_Bps == Approx(3.35e12));
    // NVIDIA H200 datasheet: 141 GB HBM3e, 4.8 TB/s.
    const auto h200 = parse_scenario(json{{"cluster", "hgx-h200"}}).cluster;
    CHECK(h200.gpu.hbm_bytes == 141e9);
    CHECK(h200.gpu.hbm_bandwidth_Bps == Approx(4.8e12));
    // NVIDIA A100 datasheet: 312 TFLOP/s BF16 dense, 2,039 GB/s on the 80GB SXM part.
    const auto a100 = parse_scenario(json{{"cluster", "dgx-a100-80gb"}}).cluster;
    CHECK(a100.gpu.flops_bf16 == 312e12);
    CHECK(a100.gpu.hbm_bandwidth_Bps == Approx(2.039e12));
    // DGX H100: eight 400 Gb/s ConnectX-7 ports, one per GPU = 50 GB/s each way.
    CHECK(h100.inter_node.bandwidth_Bps == 50e9);
    CHECK(h100.gpus_per_node == 8);
}
