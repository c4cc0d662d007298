// Korthikanti et al. (arXiv 2205.05198) Table 2, every row, over several shapes (activation.hpp).
#include <catch2/catch.hpp>

#include "tslab/activation.hpp"
#include "tslab/compute.hpp"

using namespace tslab;

namespace {

struct shape {
    const char* preset;
    long s, b, t;
};

scenario gpt(const shape& x, bool sp, const char* recompute, bool flash) {
    json doc = {{"model", x.preset},
                {"parallel", {{"tp", x.t}, {"sp", sp}}},
                {"training", {{"seq_len", x.s}, {"micro_batch", x.b}, {"recompute", recompute}, {"flash_attention", flash}}}};
    return parse_scenario(doc);
}

}  // namespace

TEST_CASE("Korthikanti Table 2 rows, activation bytes per layer", "[activation]") {
    // Table 2 (16-bit activations, 1-byte dropout masks, GPT block):
    //   no parallelism       sbh(34 + 5as/h)
    //   tensor parallel      sbh(10 + 24/t + 5as/(ht))
    //   TP + SP              sbh(34/t + 5as/(ht))
    //   TP + selective       sbh(10 + 24/t)
    //   TP + SP + selective  sbh(34/t)
    //   full recompute       sbh(2)
    const shape shapes[] = {
        {"gpt-22b", 2048, 1, 8}, {"gpt-175b", 2048, 1, 8}, {"gpt-530b", 2048, 4, 8}, {"gpt-1t", 2048, 1, 8}, {"gpt-1.7b", 1024, 2, 4}};
    for (const auto& x : shapes) {
        const scenario base = gpt(x, false, "none", false);
        const double s = static_cast<double>(x.s), b = static_cast<double>(x.b), t = static_cast<double>(x.t);
        const double h = static_cast<double>(base.model.hidden), a = static_cast<double>(base.model.heads);
        const double sbh = s * b * h;
        INFO(x.preset);
        CHECK(layer_activation_bytes(gpt({x.preset, x.s, x.b, 1}, false, "none", false), false).total == Approx(sbh * (34 + 5 * a * s / h)));
        CHECK(layer_activation_bytes(base, false).total == Approx(sbh * (10 + 24 / t + 5 * a * s / (h * t))));
        CHECK(layer_activation_bytes(gpt(x, true, "none", false), false).total == Approx(sbh * (34 / t + 5 * a * s / (h * t))));
        CHECK(layer_activation_bytes(gpt(x, false, "selective", false), false).total == Approx(sbh * (10 + 24 / t)));
        CHECK(layer_activation_bytes(gpt(x, true, "selective", false), false).total == Approx(sbh * 34 / t));
        CHECK(layer_activation_bytes(gpt(x, false, "full", false), false).total == Approx(sbh * 2));
    }
}

TEST_CASE("FlashAttention removes the s² term and keeps fp32 softmax statistics", "[activation]") {
    const shape x{"gpt-175b", 4096, 1, 8};
    const scenario flash = gpt(x, true, "none", true);
    const double s = 4096, h = 12288, a = 96, t = 8;
    CHECK(layer_activation_bytes(flash, false).quadratic == 0);
    CHECK(layer_activation_bytes(flash, false).total == Approx(s * h * 34 / t + 4 * a * s / t));
}

TEST_CASE("Context parallel divides the sequence held per rank", "[activation]") {
    json doc = {{"model", "llama3-8b"}, {"parallel", {{"cp", 4}, {"dp", 1}}}, {"training", {{"seq_len", 8192}}}};
    json one = doc;
    one["parallel"]["cp"] = 1;
    const double with_cp = layer_activation_bytes(parse_scenario(doc), false).total;
    const double without = layer_activation_bytes(parse_scenario(one), false).total;
    CHECK(with_cp == Approx(without / 4));
}

TEST_CASE("FP8 activation storage halves the 16-bit tensors", "[activation]") {
    json doc = {{"model", "llama3-8b"}, {"training", {{"precision", {{"activations", "fp8"}}}}}};
    json bf = {{"model", "llama3-8b"}};
    const auto a8 = layer_activation_bytes(parse_scenario(doc), false);
    const auto a16 = layer_activation_bytes(parse_scenario(bf), false);
    CHECK(a8.replicated == Approx(a16.replicated / 2));  // no dropout masks in Llama
}

TEST_CASE("selective recompute on MLA rebuilds Q, K and V from the latents: DeepSeek-V3's saving and its FLOPs", "[activation]") {
    // DeepSeek-V3 (arXiv 2412.19437 section 4.2): 128 heads, qk 128 + 64 = 192, v 128, query
    // latent 1536, KV latent 512. Section 3.2.3 recomputes the MLA up-projections in the backward.
    const auto v3 = [](const char* recompute, long tp) {
        return parse_scenario({{"model", "deepseek-v3"},
                               {"parallel", {{"tp", tp}, {"sp", tp > 1}}},
                               {"training", {{"seq_len", 4096}, {"micro_batch", 1}, {"recompute", recompute}, {"flash_attention", true}}}});
    };
    for (long tp : {1L, 4L}) {
        INFO("tp " << tp);
        const scenario none = v3("none", tp), sel = v3("selective", tp);
        CHECK_FALSE(mla_up_recomputed(none));
        CHECK(mla_up_recomputed(sel));
        // Per token: Q 128 × 192, K 128 × 192, V 128 × 128 = 65,536 elements of 2 B, split over TP.
        const double saved = 4096.0 * 65536 * 2 / static_cast<double>(tp);
        for (bool moe : {false, true}) CHECK(layer_activation_bytes(none, moe).total - layer_activation_bytes(sel, moe).total == Approx(saved));
        // The extra forward: the two up-projections, 2·s·(1536·128·192 + 512·128·(128 + 128)) per
        // layer and sequence, over all 61 layers (the full model, TP 1).
        const double up = 2.0 * 4096 * (1536.0 * 128 * 192 + 512.0 * 128 * 256);
        CHECK(flops_per_sequence(sel).recompute - flops_per_sequence(none).recompute == Approx(61 * up));
        // The stage's recompute time is those GEMMs' time.
        const compute_estimate a = estimate_compute_time(none), b = estimate_compute_time(sel);
        CHECK(a.recompute_s == 0);
        CHECK(b.recompute_s > 0);
        CHECK(b.fwd_s == Approx(a.fwd_s));
    }
    // Op-level keeps every matmul output, the up-projections' too; MHA models are unchanged.
    CHECK_FALSE(mla_up_recomputed(v3("op", 1)));
    CHECK_FALSE(mla_up_recomputed(parse_scenario({{"model", "llama3-8b"}, {"training", {{"recompute", "selective"}}}})));
}
