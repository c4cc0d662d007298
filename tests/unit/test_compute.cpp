// L3 compute: GEMM FLOPs per layer against closed forms derived here, recompute, Flash, FP8 and
// the size-dependent efficiency (compute.hpp).
#include <catch2/catch.hpp>

#include "tslab/compute.hpp"
#include "tslab/errors.hpp"
#include "tslab/schedule_shape.hpp"

using namespace tslab;

namespace {

scenario make(json doc) { return parse_scenario(doc); }

double flops_named(const layer_work& w, const std::string& prefix) {
    double f = 0;
    for (const auto& g : w.gemms)
        if (g.name.rfind(prefix, 0) == 0) f += g.flops();
    return f;
}

}  // namespace

TEST_CASE("GPT layer forward FLOPs are 24bsh² + 4bs²h, split by TP", "[compute]") {
    // Narayanan et al. arXiv 2104.04473 section 5.1: QKV 6h², out 2h², MLP 16h² per token (×2 FLOPs
    // per MAC already in), scores and AV 2·2·s·h per token.
    for (long t : {1L, 2L, 8L}) {
        const scenario s = make(
            {{"model", "gpt-18.4b"}, {"parallel", {{"tp", t}}}, {"training", {{"seq_len", 2048}, {"micro_batch", 2}, {"flash_attention", false}}}});
        const double b = 2, sq = 2048, h = 6144;
        const layer_work w = layer_forward_work(s, false);
        INFO("tp " << t);
        CHECK(w.model_flops == Approx((24 * b * sq * h * h + 4 * b * sq * sq * h) / t).epsilon(1e-12));
        CHECK(w.gemm_flops == Approx(w.model_flops).epsilon(1e-12));  // no Flash: the masked half is computed
    }
}

TEST_CASE("Flash with a causal mask executes half the attention core — model FLOPs keep all of it", "[compute]") {
    const scenario s = make({{"model", "gpt-7.5b"}, {"training", {{"seq_len", 4096}, {"flash_attention", true}}}});
    const layer_work w = layer_forward_work(s, false);
    const double sq = 4096, h = 4096;
    CHECK(w.model_flops - w.gemm_flops == Approx(0.5 * 4 * sq * sq * h));
    CHECK(w.core_flops == Approx(0.5 * 4 * sq * sq * h));
    CHECK(w.core_memory_bytes == 0);  // scores never reach HBM
}

TEST_CASE("GQA and SwiGLU: Llama 3 8B per-token forward FLOPs", "[compute]") {
    // h = 4096, a = 32, kv = 8, d = 128, f = 14336 (arXiv 2407.21783 Table 3). Per token:
    // QKV 2h(a + 2kv)d, out 2(ad)h, SwiGLU 2h·2f + 2fh, core 4·s·a·d (full score matrix).
    const scenario s = make({{"model", "llama3-8b"}, {"training", {{"seq_len", 8192}}}});
    const double h = 4096, a = 32, kv = 8, d = 128, f = 14336, sq = 8192;
    const double per_token = 2 * h * (a + 2 * kv) * d + 2 * a * d * h + 2 * h * 2 * f + 2 * f * h + 4 * sq * a * d;
    CHECK(layer_forward_work(s, false).model_flops == Approx(per_token * sq).epsilon(1e-12));
}

TEST_CASE("MLA attention FLOPs from the DeepSeek-V3 ranks", "[compute]") {
    // arXiv 2412.19437 section 4.2: h 7168, 128 heads, q_lora 1536, kv_lora 512, nope 128, rope 64, v 128.
    const scenario s = make({{"model", "deepseek-v3"}, {"training", {{"seq_len", 4096}}}});
    const layer_work w = layer_forward_work(s, false);
    const double n = 4096, h = 7168, a = 128, ql = 1536, kvl = 512, nope = 128, rope = 64, v = 128;
    const double proj = 2 * n * (h * ql + ql * a * (nope + rope) + h * (kvl + rope) + kvl * a * (nope + v) + a * v * h);
    const double core = 2 * n * n * a * (nope + rope) + 2 * n * n * a * v;
    CHECK(flops_named(w, "attn") == Approx(proj + core).epsilon(1e-12));
}

TEST_CASE("MoE layer: router, top_k routed experts and shared experts per rank", "[compute]") {
    // Per token: router 2hE; top_k experts of 3·2·h·f_e (SwiGLU); one shared expert the same.
    // With EP the mean per-rank work does not change; with TP = 2 (etp 1) each rank takes half the tokens.
    const double n = 4096, h = 7168, E = 256, k = 8, fe = 2048;
    for (long tp : {1L, 2L}) {
        const scenario s = make({{"model", "deepseek-v3"}, {"parallel", {{"dp", 16}, {"ep", 8}, {"tp", tp}}}, {"training", {{"seq_len", 4096}}}});
        const layer_work w = layer_forward_work(s, true);
        INFO("tp " << tp);
        CHECK(flops_named(w, "moe.router") == Approx(2 * n * h * E));
        CHECK(flops_named(w, "moe.experts") == Approx(n * k * 6 * h * fe / tp).epsilon(1e-12));
        CHECK(flops_named(w, "moe.shared") == Approx(n * 6 * h * fe / tp).epsilon(1e-12));
    }
}

TEST_CASE("Recompute adds a forward: +1/3 of model FLOPs for the layers under full recompute", "[compute]") {
    const scenario none = make({{"model", "gpt-1.7b"}, {"training", {{"recompute", "none"}, {"flash_attention", false}}}});
    const scenario full = make({{"model", "gpt-1.7b"}, {"training", {{"recompute", "full"}, {"flash_attention", false}}}});
    const scenario sel = make({{"model", "gpt-1.7b"}, {"training", {{"recompute", "selective"}, {"flash_attention", false}}}});
    const sequence_flops a = flops_per_sequence(none), b = flops_per_sequence(full), c = flops_per_sequence(sel);
    const double s = 2048, h = 2304, l = 24, V = 51200;
    const double layer_fwd = l * (24 * s * h * h + 4 * s * s * h), head_fwd = 2 * s * h * V;
    CHECK(a.hardware() == Approx(3 * (layer_fwd + head_fwd)));
    CHECK(b.hardware() - a.hardware() == Approx(layer_fwd));
    CHECK(c.hardware() - a.hardware() == Approx(l * 4 * s * s * h));  // selective: the attention core only
    CHECK(b.model() == Approx(a.model()));
}

TEST_CASE("GEMM efficiency: half of max at half_flops, rising with GEMM size", "[compute]") {
    gemm_efficiency_spec e;
    e.max = 0.7;
    e.half_flops = 1e9;
    CHECK(gemm_efficiency(e, e.half_flops, 1e9) == Approx(0.35));
    CHECK(gemm_efficiency(e, e.half_flops, 1e8) < gemm_efficiency(e, e.half_flops, 1e10));
    CHECK(gemm_efficiency(e, e.half_flops, 1e15) == Approx(0.7).epsilon(1e-5));
    // The same FLOPs in small calls take longer than in one big call.
    const scenario s = make({{"model", "gpt-1.7b"}});
    gemm_call big, small;
    big.m = 4096, big.n = 4096, big.k = 4096;
    small.m = 256, small.n = 4096, small.k = 4096;
    CHECK(16 * gemm_time_s(s.cluster.gpu, dtype::bf16, small) > gemm_time_s(s.cluster.gpu, dtype::bf16, big));
}

TEST_CASE("Memory-bound work is timed from HBM bytes", "[compute]") {
    json base = {{"model", "gpt-1.7b"}, {"training", {{"flash_attention", false}}}};
    const compute_estimate fast = estimate_compute(make(base));
    base["cluster"] = {{"preset", "dgx-a100-80gb"}, {"gpu", {{"preset", "a100-sxm4-80gb"}, {"hbm_bandwidth_Bps", 1.0195e12}}}};
    const compute_estimate slow = estimate_compute(make(base));
    CHECK(slow.memory_fwd_s == Approx(2 * fast.memory_fwd_s));
    CHECK(slow.gemm_fwd_s == Approx(fast.gemm_fwd_s));
    CHECK(fast.memory_fwd_s > 0);
}

TEST_CASE("FP8 recipe on H100 speeds eligible GEMMs by their curves — attention core and head stay 16-bit", "[compute]") {
    const json bf = {{"model", "llama3-8b"}, {"cluster", "dgx-h100"}, {"training", {{"precision", "bf16-mixed"}}}};
    json f8 = bf;
    f8["training"]["precision"] = "fp8-mixed";
    const scenario a = make(bf), b = make(f8);
    const layer_work w = layer_forward_work(a, false);
    for (const auto& g : w.gemms) {
        const double ratio = gemm_time_s(a.cluster.gpu, dtype::bf16, g) / gemm_time_s(b.cluster.gpu, dtype::fp8, g);
        INFO(g.name);
        // At most the MAMF ceilings' ratio (H100 SXM: FP8 1402.6 / BF16 794.5 TFLOP/s), less for small GEMMs.
        if (g.fp8) CHECK(ratio > 1.3);
        if (g.fp8) CHECK(ratio < 1402.6 / 794.5 + 1e-9);
        if (!g.fp8) CHECK(ratio == Approx(1.0));
    }
    CHECK(estimate_compute(b).fp8_speedup == Approx(fp8_speedup(b)));
}

TEST_CASE("Chunk costs split the stage: F + B + W per chunk × vpp = the stage's layer work", "[compute]") {
    const scenario s = make({{"model", "gpt-39.1b"},
                             {"parallel", {{"pp", 4}, {"vpp", 3}, {"tp", 8}}},
                             {"training", {{"schedule", "interleaved"}, {"global_batch", 16}, {"recompute", "full"}}}});
    const compute_estimate c = estimate_compute(s);
    CHECK(c.stage_layers == 12);
    CHECK(c.chunk_W_s > 0);
    CHECK(c.chunk_W_s < c.chunk_B_s);  // B carries the recompute and the attention-core backward
    const double per_mb_layers = 3 * (c.chunk_F_s + c.chunk_B_s + c.chunk_W_s);
    CHECK(per_mb_layers < c.fwd_s + c.bwd_s + c.recompute_s);  // the head is outside the chunks
    CHECK(c.step_compute_s == Approx(16 * (c.fwd_s + c.bwd_s + c.recompute_s) + c.optimizer_s));
}

TEST_CASE("gemm_efficiency is read from cluster.gpu and checked", "[compute][scenario]") {
    const scenario a100 = make({{"cluster", "dgx-a100-80gb"}});
    CHECK(a100.cluster.gpu.gemm.bf16.fitted);
    // The flat form of earlier versions sets one curve for every dtype.
    json doc = {
        {"cluster", {{"preset", "dgx-h100"}, {"gpu", {{"preset", "h100-sxm5-80gb"}, {"gemm_efficiency", {{"max", 0.8}, {"half_flops", 2e9}}}}}}}};
    const scenario h = make(doc);
    CHECK(h.cluster.gpu.gemm.bf16.max == 0.8);
    CHECK(h.cluster.gpu.gemm.fp8.half_flops == 2e9);
    doc["cluster"]["gpu"]["gemm_efficiency"]["max"] = 1.5;
    CHECK_THROWS_WITH(make(doc), Catch::Contains("cluster.gpu.gemm_efficiency.max"));
    doc["cluster"]["gpu"]["gemm_efficiency"] = {{"bf16", {{"maks", 0.5}}}};
    CHECK_THROWS_WITH(make(doc), Catch::Contains("did you mean max"));
    doc["cluster"]["gpu"]["gemm_efficiency"] = {{"bf16", {{"max", 0.7}}}, {"fp8", {{"max", 0.6}}}, {"in_step", 0.5}};
    const scenario g = make(doc);
    CHECK(g.cluster.gpu.gemm.fp8.max == 0.6);
    CHECK(g.cluster.gpu.gemm.in_step == 0.5);
    doc["cluster"]["gpu"]["gemm_efficiency"]["in_step"] = 0;
    CHECK_THROWS_WITH(make(doc), Catch::Contains("cluster.gpu.gemm_efficiency.in_step"));
}

TEST_CASE("The busiest stage: the last one with the head where it is heavier, else one of ceil(L/pp) layers", "[compute]") {
    // The split gives the first L mod pp stages one layer more (chunk_first_layer, as the memory
    // ledger places them), so the last stage, which also runs the head, holds floor(L/pp) layers.
    // Llama 3 405B: 126 layers on 16 stages are 14 of 8 and 2 of 7 (the paper's own split, arXiv
    // 2407.21783 section 3.3.2, takes a layer off the first and the last stage); the 7-layer stage
    // with the head is the lighter, so the step runs at the pace of an 8-layer stage, no head in it.
    const scenario llama = make({{"model", "llama3-405b"}, {"parallel", {{"pp", 16}, {"tp", 8}}}, {"training", {{"global_batch", 16}}}});
    CHECK(last_stage(llama).layers == 7);
    const compute_estimate c = estimate_compute(llama);
    CHECK(c.stage_layers == 8);
    CHECK(c.fwd_s == c.stage_F_s);  // no head on this stage
    // Where pp divides L, every stage holds L/pp layers and the last, with the head, is the busiest.
    const scenario even = make({{"model", "llama3-405b"}, {"parallel", {{"pp", 14}, {"tp", 8}}}, {"training", {{"global_batch", 14}}}});
    const compute_estimate e = estimate_compute(even);
    CHECK(e.stage_layers == 9);
    CHECK(e.fwd_s > e.stage_F_s);
    // DeepSeek-V3: 61 layers on 16 stages leave the last 3 (61 - chunk_first_layer(61, 16, 15)), and
    // its head (129,280-word vocabulary) and MTP module outweigh a fourth layer: that stage binds.
    const scenario ds = make({{"model", "deepseek-v3"}, {"parallel", {{"pp", 16}}}, {"training", {{"mtp_depth", 1}, {"global_batch", 16}}}});
    CHECK(last_stage(ds).layers == 61 - chunk_first_layer(61, 16, 15));
    const compute_estimate d = estimate_compute(ds);
    CHECK(d.stage_layers == 3);
    CHECK(d.fwd_s > d.stage_F_s);
}

TEST_CASE("DualPipe runs the last stage, head and MTP included, for half the micro-batches on each of its two ranks", "[compute]") {
    // DeepSeek-V3 section 3.2.1: micro-batches enter from both ends, and a rank holds stage r and
    // stage p-1-r (schedule_shape.hpp, dual). The rank with the last stage also holds the first:
    // half of each per micro-batch, so its head and MTP modules weigh half what they do under 1F1B.
    const auto ds = [](const char* schedule) {
        return estimate_compute(make(
            {{"model", "deepseek-v3"}, {"parallel", {{"pp", 16}}}, {"training", {{"mtp_depth", 1}, {"global_batch", 32}, {"schedule", schedule}}}}));
    };
    const compute_estimate dual = ds("dualpipe"), one = ds("1f1b"), v = ds("dualpipev");
    CHECK(head_share(make({{"model", "deepseek-v3"}, {"parallel", {{"pp", 16}}}, {"training", {{"schedule", "dualpipe"}}}})) == 0.5);
    // fwd_s − stage_F_s is the head and the MTP modules' forward on the busiest rank.
    CHECK(dual.fwd_s - dual.stage_F_s == Approx(0.5 * (one.fwd_s - one.stage_F_s)));
    // Its layers: half of the first stage's 4 and half of the last stage's 3.
    CHECK(dual.stage_F_s == Approx(0.5 * (4.0 / 3.0) * one.stage_F_s + 0.5 * one.stage_F_s));
    CHECK(dual.step_compute_s < one.step_compute_s);
    // DualPipeV places chunks in a V: rank 0 runs the last chunk for every micro-batch, as 1F1B does.
    CHECK(v.fwd_s - v.stage_F_s == Approx(one.fwd_s - one.stage_F_s));
}
