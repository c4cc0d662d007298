// Korthikanti et al. (arXiv 2205.05198) Table 2, every row, over several shapes (activation.hpp).
#include <catch2/catch.hpp>

#include "tslab/activation.hpp"

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
    const shape shapes[] = {{"gpt-22b", 2048, 1, 8}, {"gpt-175b", 2048, 1, 8}, {"gpt-530b", 2048, 4, 8},
                            {"gpt-1t", 2048, 1, 8},  {"gpt-1.7b", 1024, 2, 4}};
    for (const auto& x : shapes) {
        const scenario base = gpt(x, false, "none", false);
        const double s = static_cast<double>(x.s), b = static_cast<double>(x.b), t = static_cast<double>(x.t);
        const double h = static_cast<double>(base.model.hidden), a = static_cast<double>(base.model.heads);
        const double sbh = s * b * h;
        INFO(x.preset);
        CHECK(layer_activation_bytes(gpt({x.preset, x.s, x.b, 1}, false, "none", false), false).total ==
              Approx(sbh * (34 + 5 * a * s / h)));
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
