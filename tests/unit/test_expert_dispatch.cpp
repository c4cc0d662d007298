// Dispatch bytes by link (expert_dispatch.hpp) and what node-limited routing does to the step's EP
// All-to-All time: the step times the same NVLink / network split the expert section reports.
#include <catch2/catch.hpp>

#include "tslab/collectives.hpp"
#include "tslab/expert_dispatch.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

// DeepSeek-V3 (arXiv 2412.19437 section 4.2: hidden 7168, 8 routed experts per token; section 3.2:
// EP 64 over 8 nodes) on the dgx-h100 preset: NVLink 450 GB/s, 3 µs; network 50 GB/s per GPU
// (one 400 Gb/s NIC), 5 µs.
// Group-limited routing off ({"groups", 1}), so node_limit alone sets M.
report v3(std::int64_t node_limit) {
    return build_report(parse_scenario(
        {{"model", {{"preset", "deepseek-v3"}, {"moe", {{"groups", 1}}}}},
         {"cluster", {{"preset", "dgx-h100"}}},
         {"parallel", {{"dp", 64}, {"ep", 64}, {"pp", 1}}},
         {"training",
          {{"seq_len", 4096}, {"micro_batch", 1}, {"global_batch", 64}, {"precision", "fp8-mixed"}, {"moe", {{"node_limit", node_limit}}}}}}));
}

double ep_step_s(const report& r) {
    double t = 0;
    for (const auto& it : r.comm.items)
        if (it.axis == "ep") t += it.step_time_s();
    return t;
}

}  // namespace

TEST_CASE("pairwise All-to-All with a given split: (n−1)·α + the slower link's share", "[expert_dispatch]") {
    const comm_links l{{450e9, 3e-6}, {50e9, 5e-6}, "test"};
    const group_topology g{64, 8, 8};
    // 1e9 B: network share 0.5 → 0.01 s; NVLink 2e9 B → 4.44e-3 s; the network binds. 63 rounds × 5 µs.
    const collective_estimate e = estimate_alltoall_split(1e9, 0.5e9, 2e9, g, l);
    CHECK(e.time_s == Approx(63 * 5e-6 + 0.5e9 / 50e9));
    CHECK(e.wire_bytes == Approx(2.5e9));
    // The plain split (7/8 off node, 7/64 on NVLink) is NCCL's All-to-All to the last bit.
    const collective_estimate plain = estimate_collective(collective_op::alltoall, 1e9, g, l, std::nullopt, collective_library::nccl);
    CHECK(estimate_alltoall_split(1e9, 7.0 / 8 * 1e9, 7.0 / 64 * 1e9, g, l).time_s == Approx(plain.time_s));
    CHECK_THROWS_WITH(estimate_alltoall_split(1e9, -1, 0, g, l), Catch::Contains("bytes"));
}

TEST_CASE("node-limited routing (M = 4) shortens the step's EP All-to-All by the closed-form ratio", "[expert_dispatch]") {
    const report plain = v3(0), limited = v3(4);
    // Per token and MoE layer: FP8 dispatch 8 × 7168 × (1 + 4/128) = 59,136 B, BF16 combine
    // 8 × 7168 × 2 = 114,688 B (DeepSeek-V3 section 3.3.4); 4096 tokens per rank.
    const double S = 4096.0 * (59136 + 114688);
    // Network share per call: plain (64 − 8)/64 = 7/8; node-limited min(4, 8, 8)·(8 − 1)/8 / 8 = 7/16
    // (section 2.1.2: each token reaches at most M = 4 nodes). The network binds in both
    // (NVLink: 7/64 and 7/8 of S at 9× the bandwidth). Dispatch + combine per MoE layer and pass:
    const double alpha = 2 * 63 * 5e-6;
    const double t_plain = alpha + 7.0 / 8 * S / 50e9, t_limited = alpha + 7.0 / 16 * S / 50e9;
    // = (6.3e-4 + 6.22985e-3) / (6.3e-4 + 1.24597e-2) = 0.52407
    REQUIRE(t_limited / t_plain == Approx(0.52407).epsilon(1e-4));
    REQUIRE(ep_step_s(limited) / ep_step_s(plain) == Approx(t_limited / t_plain));
    // 58 MoE layers (61 − 3 dense), forward + backward, m = 1 micro-batch per step.
    REQUIRE(ep_step_s(plain) == Approx(2 * 58 * t_plain));
    REQUIRE(limited.step.time_s < plain.step.time_s);
}

TEST_CASE("the step's EP items time the expert section's bytes", "[expert_dispatch]") {
    const report r = v3(4);
    const dispatch_split d = dispatch_split_of(r.input, r.mesh);
    const comm_item* dispatch = nullptr;
    for (const auto& it : r.comm.items)
        if (it.what.rfind("ep dispatch", 0) == 0) dispatch = &it;
    REQUIRE(dispatch);
    CHECK(dispatch->call.bytes == Approx(d.dispatch_bytes));
    CHECK(dispatch->call.wire_bytes == Approx(d.dispatch_network_bytes + d.dispatch_nvlink_bytes));
    CHECK(d.dispatch_network_bytes / d.tokens == Approx(3.5 * 7168 * (1 + 4.0 / 128)));  // 25,872 B per token
}
