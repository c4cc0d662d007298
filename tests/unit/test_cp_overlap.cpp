// Context parallelism priced (issue 10 item 5): the attention kernel at its chunk length, ring K/V
// passes under their block kernels, all-gather CP (Llama 3), and TP's userbuffers overlap; plus the
// NCCL algorithm set, op-level recompute and the DP reduce dtype of the same issue.
#include <catch2/catch.hpp>

#include "tslab/comm_inventory.hpp"
#include "tslab/context.hpp"
#include "tslab/errors.hpp"
#include "tslab/report.hpp"

using namespace tslab;

namespace {

report of(const json& doc) { return build_report(parse_scenario(doc), 0); }

const comm_item* item(const report& r, const std::string& what) {
    for (const auto& it : r.comm.items)
        if (it.what.find(what) != std::string::npos) return &it;
    return nullptr;
}

json llama70(long tp, long cp, const char* method, long seq) {
    return {{"model", "llama3-70b"},
            {"cluster", "dgx-h100"},
            {"parallel", {{"tp", tp}, {"cp", cp}, {"cp_method", method}, {"dp", 8}, {"pp", 1}, {"sp", tp > 1}, {"zero", 3}}},
            {"training", {{"seq_len", seq}, {"global_batch", 8}, {"recompute", "full"}}}};
}

}  // namespace

TEST_CASE("Splitting a layer by CP costs more compute than by TP at short sequences: the kernel sees seq/cp keys", "[context][cp]") {
    // Llama 3 70B at 4K on 32 H100: TP 4 or Ring CP 4 do the same FLOPs per GPU, but ring attention
    // runs one kernel per 1K-key block (FA3 at 1K keys: 517 TFLOP/s against 590 at 4K, pytorch/benchmark #2391).
    const report tp = of(llama70(4, 1, "ring", 4096)), cp = of(llama70(1, 4, "ring", 4096));
    CHECK(cp.compute.attention_core_fwd_s > 1.05 * tp.compute.attention_core_fwd_s);
    CHECK(cp.compute.step_compute_s > tp.compute.step_compute_s);
    // Ulysses and all-gather CP keep whole-sequence kernels: no such penalty.
    const report uly = of(llama70(1, 4, "ulysses", 4096));
    CHECK(uly.compute.attention_core_fwd_s == Approx(tp.compute.attention_core_fwd_s).epsilon(0.02));
}

TEST_CASE("Ring K/V passes hide under long blocks and show under short ones", "[context][cp]") {
    // Per pass: K/V bytes ∝ s/cp, the block kernel ∝ (s/cp)²: the hidden share rises with the sequence.
    auto hidden_share = [](long seq) {
        const report r = of(llama70(8, 8, "ring", seq));
        const comm_item* kv = item(r, "ring K/V");
        REQUIRE(kv);
        CHECK(kv->ring_block);
        return kv->overlap;
    };
    const double short_seq = hidden_share(8192), long_seq = hidden_share(262144);
    CHECK(short_seq < long_seq);
    CHECK(long_seq == Approx(1.0));
    CHECK(short_seq < 0.9);
}

TEST_CASE("All-gather CP (Llama 3): K/V gathered per layer, dK/dV reduce-scattered, balanced by 2·cp chunks", "[context][cp]") {
    // Llama 3 70B, tp 8, cp 16, seq 131072: one rank holds 8192 tokens; K+V = 2 · (8 KV heads / 8) · 128 wide, bf16.
    const scenario s = parse_scenario(llama70(8, 16, "allgather", 131072));
    const context_report r = context_traffic(s);
    const double full = 131072.0 * 2 * 1 * 128 * 2;
    REQUIRE(r.items.size() == 4);  // 2 SP + the All-Gather and the ReduceScatter
    const auto& ag = r.items[2];
    CHECK(ag.op == "allgather");
    CHECK(ag.bytes == full);
    CHECK(ag.count_fwd == 1);
    CHECK(ag.count_bwd == 1);
    CHECK(r.items[3].op == "reducescatter");
    CHECK(r.items[3].count_bwd == 1);
    CHECK(r.kernel_keys == 131072);
    json bad = llama70(8, 16, "allgather", 131072);
    bad["training"]["seq_len"] = 131072 + 16;
    CHECK_THROWS_WITH(parse_scenario(bad), Catch::Contains("parallel.cp") && Catch::Contains("causal balance"));
}

TEST_CASE("TP userbuffers overlap hides SP collectives under their GEMMs, and needs SP", "[tp][overlap]") {
    json doc = {{"model", "llama3-70b"},
                {"cluster", "dgx-h100"},
                {"parallel", {{"tp", 8}, {"sp", true}, {"dp", 4}}},
                {"training", {{"seq_len", 8192}, {"global_batch", 8}}}};
    const report off = of(doc);
    doc["training"]["overlap"] = {{"tp_comm", true}};
    const report on = of(doc);
    const comm_item* ag = item(on, "sp AllGather");
    REQUIRE(ag);
    // exposed = max(0, c − g·(t−1)/t), g = a quarter of the layer's dense forward GEMMs.
    const double g = on.compute.layer_dense_gemm_fwd_s / 4 * 7 / 8;
    CHECK(ag->call.time_s * (1 - ag->overlap) == Approx(std::max(0.0, ag->call.time_s - g)).margin(1e-12));
    CHECK(on.step.time_s < off.step.time_s);
    doc["parallel"]["sp"] = false;
    CHECK_THROWS_WITH(parse_scenario(doc), Catch::Contains("training.overlap.tp_comm: needs parallel.sp"));
    doc["parallel"]["sp"] = true;
    doc["training"]["overlap"]["tp"] = 0.5;
    CHECK_THROWS_WITH(parse_scenario(doc), Catch::Contains("training.overlap.tp"));
}

TEST_CASE("TP userbuffers overlap needs the TP group inside one NVLink domain", "[tp][overlap]") {
    // TransformerEngine's userbuffers exchange through peer memory mapped over NVLink (CUDA IPC):
    // a TP group of 16 on 8-GPU nodes crosses the network, and its SP collectives stay exposed.
    json doc = {{"model", "llama3-70b"},
                {"cluster", "dgx-h100"},
                {"parallel", {{"tp", 16}, {"sp", true}, {"dp", 2}}},
                {"training", {{"seq_len", 8192}, {"global_batch", 8}, {"overlap", {{"tp_comm", true}}}}}};
    const report across = of(doc);
    const comm_item* ag = item(across, "sp AllGather");
    REQUIRE(ag);
    CHECK(ag->call.link != link_class::intra);
    CHECK(ag->overlap == 0);
}

TEST_CASE("The step's collectives use NCCL's algorithms: rings for SP, not recursive doubling", "[collectives]") {
    // NCCL (docs, NCCL_ALGO) runs AllGather and ReduceScatter as rings; MPICH's recursive doubling
    // (3 rounds for 8 ranks instead of 7) is not what a GPU run pays.
    const report r = of({{"model", "llama3-8b"},
                         {"cluster", "dgx-h100"},
                         {"parallel", {{"tp", 8}, {"sp", true}}},
                         {"training", {{"seq_len", 4096}, {"global_batch", 8}}}});
    const comm_item* ag = item(r, "sp AllGather");
    REQUIRE(ag);
    CHECK(ag->call.algorithm_name == "ring");
    CHECK(ag->call.rounds == 7);
}

TEST_CASE("Op-level recompute keeps matmul and attention outputs: memory between none and selective, no GEMM rerun", "[activation]") {
    auto mem = [](const char* rec) {
        return of({{"model", "llama3-8b"},
                   {"cluster", "dgx-h100"},
                   {"parallel", {{"tp", 2}, {"sp", true}}},
                   {"training", {{"seq_len", 8192}, {"global_batch", 8}, {"recompute", rec}}}});
    };
    const report none = mem("none"), op = mem("op"), full = mem("full");
    CHECK(activation_bytes_of(op.memory) < activation_bytes_of(none.memory));
    CHECK(activation_bytes_of(op.memory) > activation_bytes_of(full.memory));
    CHECK(op.compute.recompute_s > 0);
    CHECK(op.compute.recompute_s < 0.2 * full.compute.recompute_s);  // elementwise only
    CHECK(op.step.time_s < full.step.time_s);
}

TEST_CASE("Op-level recompute without Flash runs the unfused attention core again, as selective does", "[activation][compute]") {
    // torchtitan's op-level save list keeps aten.mm outputs and the fused SDPA kernels' only
    // (activation_checkpoint.py, _save_list); the unfused core's bmm, softmax and dropout are not on
    // it, so the backward redoes QKᵀ and AV from the kept Q, K and V (the core Korthikanti et al.,
    // arXiv 2205.05198 section 4.2.2, recompute selectively), and neither its output nor an LSE is kept.
    auto run = [](const char* rec, bool flash) {
        return of({{"model", "llama3-8b"},
                   {"cluster", "dgx-h100"},
                   {"parallel", {{"tp", 2}, {"sp", true}}},
                   {"training", {{"seq_len", 8192}, {"global_batch", 8}, {"recompute", rec}, {"flash_attention", flash}}}});
    };
    const report op = run("op", false), selective = run("selective", false), fused = run("op", true);
    CHECK(op.compute.hardware_flops > op.compute.model_flops);
    CHECK(op.compute.hardware_flops == Approx(selective.compute.hardware_flops).epsilon(1e-12));  // the core once, both
    CHECK(op.compute.recompute_s > selective.compute.recompute_s);  // and the element-wise work besides
    // Per layer and micro-batch on one TP rank: the attention output, a·d_head = 4096 elements of
    // 2 bytes, and the fp32 LSE of a = 32 heads, over 8192/2 tokens; 32 layers, one micro-batch in flight.
    CHECK(activation_bytes_of(fused.memory) - activation_bytes_of(op.memory) == Approx(32.0 * (4096 * 2 + 4 * 32) * 8192 / 2));
}

TEST_CASE("training.precision.reduce sets the DP gradient reduction's dtype", "[numerics][collectives]") {
    json doc = {{"model", "llama3-8b"},
                {"cluster", "dgx-h100"},
                {"parallel", {{"dp", 16}, {"zero", 1}}},
                {"training", {{"global_batch", 16}, {"precision", {{"recipe", "bf16-fp32-grads"}}}}}};
    const report fp32 = of(doc);
    doc["training"]["precision"]["reduce"] = "bf16";
    const report bf16 = of(doc);
    const comm_item* a = item(fp32, "gradient ReduceScatter");
    const comm_item* b = item(bf16, "gradient ReduceScatter");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(b->call.bytes == Approx(a->call.bytes / 2));
    doc["training"]["precision"]["reduce"] = "fp8";
    CHECK_THROWS_WITH(parse_scenario(doc), Catch::Contains("training.precision.reduce"));
}
