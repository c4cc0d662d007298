// Exact parameter counts against published totals (params.hpp).
#include <catch2/catch.hpp>

#include <cmath>

#include "tslab/params.hpp"
#include "tslab/presets.hpp"

using namespace tslab;

namespace {
model_spec preset_model(const std::string& name) { return parse_scenario(json{{"model", name}}).model; }
}  // namespace

TEST_CASE("Llama 3 totals match the released checkpoints exactly", "[params]") {
    // Source: Hugging Face meta-llama/Meta-Llama-3{,.1}-{8B,70B,405B} model.safetensors.index.json
    // "total_size" in bytes / 2 (bf16): 16,060,522,496 / 141,107,412,992 / 811,706,777,600.
    CHECK(count_params(preset_model("llama3-8b")).total == 8'030'261'248LL);
    CHECK(count_params(preset_model("llama3-70b")).total == 70'553'706'496LL);
    CHECK(count_params(preset_model("llama3-405b")).total == 405'853'388'800LL);
}

TEST_CASE("Megatron GPT counts equal Narayanan et al.'s closed form plus the final LayerNorm", "[params]") {
    // arXiv 2104.04473 section 5.1: P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)); that form
    // omits the final LayerNorm (2h). Table 1 prints P rounded to 0.1B.
    struct row {
        const char* preset;
        double table_billions;
    };
    const row rows[] = {{"gpt-1.7b", 1.7},   {"gpt-3.6b", 3.6},     {"gpt-7.5b", 7.5},     {"gpt-18.4b", 18.4}, {"gpt-39.1b", 39.1},
                        {"gpt-76.1b", 76.1}, {"gpt-145.6b", 145.6}, {"gpt-310.1b", 310.1}, {"gpt-530b", 529.6}, {"gpt-1t", 1008.0}};
    for (const auto& r : rows) {
        const model_spec m = preset_model(r.preset);
        const double l = static_cast<double>(m.layers), h = static_cast<double>(m.hidden);
        const double closed = 12 * l * h * h * (1 + 13 / (12 * h) + (51200 + 2048) / (12 * l * h));
        const double ours = static_cast<double>(count_params(m).total);
        INFO(r.preset);
        CHECK(ours - closed == Approx(2 * h).margin(1e-3 * h));
        CHECK(std::abs(ours / 1e9 - r.table_billions) <= 0.051);
    }
}

TEST_CASE("DeepSeek-V3 totals: 671B total, 37B activated", "[params]") {
    // arXiv 2412.19437 abstract: 671B total parameters with 37B activated for each token
    // (the 14B multi-token-prediction module is counted separately and not modelled here).
    const auto c = count_params(preset_model("deepseek-v3"));
    CHECK(std::abs(static_cast<double>(c.total) - 671e9) < 0.5e9);
    CHECK(std::abs(static_cast<double>(c.active) - 37e9) < 0.6e9);
}

TEST_CASE("DeepSeek-V2 totals: 236B total, 21B activated", "[params]") {
    // arXiv 2405.04434 abstract: "236B total parameters, of which 21B are activated for each token".
    const auto c = count_params(preset_model("deepseek-v2"));
    CHECK(std::abs(static_cast<double>(c.total) - 236e9) < 1e9);
    CHECK(std::abs(static_cast<double>(c.active) - 21e9) < 0.5e9);
}

TEST_CASE("Kimi K2 totals: 1T total, 32B activated", "[params]") {
    // arXiv 2507.20534 abstract: "32 billion activated parameters and 1 trillion total parameters".
    const auto c = count_params(preset_model("kimi-k2"));
    CHECK(std::abs(static_cast<double>(c.total) - 1e12) < 0.05e12);
    CHECK(static_cast<double>(c.active) >= 32e9);
    CHECK(static_cast<double>(c.active) < 33e9);
}

TEST_CASE("GQA and SwiGLU tensors have the shapes of a hand count", "[params]") {
    // Llama 3 8B layer by hand: q 4096², k/v 4096·1024 each, o 4096², MLP 3·4096·14336, 2 norms.
    const model_spec m = preset_model("llama3-8b");
    const std::int64_t h = 4096, kv = 1024, f = 14336;
    const std::int64_t layer = h * h + 2 * h * kv + h * h + 3 * h * f + 2 * h;
    CHECK(count_params(m).per_dense_layer == layer);
    CHECK(count_params(m).embedding == 128256LL * h);
}

TEST_CASE("MLA and expert tensors by hand (DeepSeek-V3 layer)", "[params]") {
    const model_spec m = preset_model("deepseek-v3");
    const std::int64_t h = 7168, a = 128;
    const std::int64_t attn = h * 1536 + 1536 + 1536 * a * 192 + h * (512 + 64) + 512 + 512 * a * (128 + 128) + a * 128 * h;
    const std::int64_t moe = 256 * h + 256 * 3 * h * 2048 + 3 * h * 2048;
    CHECK(count_params(m).per_moe_layer == attn + moe + 2 * h);
    CHECK(count_params(m).per_dense_layer == attn + 3 * h * 18432 + 2 * h);
}

TEST_CASE("a model whose parameter product leaves int64 is an input error naming the fields", "[params]") {
    // Issue 15, finding 5: this printed params_total 7240820367112011776 and total_bytes INT64_MIN.
    const json doc = {{"model", {{"layers", 100000}, {"hidden", 1048576}, {"heads", 1}, {"ffn_hidden", 1000000000}}}};
    CHECK_THROWS_WITH(
        count_params(parse_scenario(doc).model),
        Catch::StartsWith("model: ") && Catch::Contains("out of range") && Catch::Contains("model.hidden × model.ffn_hidden × model.layers"));
    const json moe = {{"model", {{"hidden", 1 << 20}, {"heads", 1}, {"moe", {{"experts", 65536}, {"top_k", 1}, {"expert_ffn_hidden", 1000000000}}}}}};
    CHECK_THROWS_WITH(count_params(parse_scenario(moe).model), Catch::Contains("model.moe.experts"));
}
