// One FLOP convention in the report (compute.hpp flops_convention, PaLM appendix B / Narayanan
// eq. 3: non-causal attention): HFU ≥ MFU for every preset, recompute mode and attention kernel;
// flops_per_token, MFU, HFU and TF/s per GPU agree; Nemotron-4's published MFU convention holds.
#include <catch2/catch.hpp>

#include "tslab/presets.hpp"
#include "tslab/report.hpp"

using namespace tslab;

TEST_CASE("HFU >= MFU for every model preset, recompute mode and attention kernel", "[flops]") {
    for (const auto& m : model_preset_names()) {
        for (const char* rec : {"none", "selective", "full"}) {
            for (bool flash : {true, false}) {
                const bool moe = m == "deepseek-v3" || m == "kimi-k2";
                const report r = build_report(
                    parse_scenario({{"model", m},
                                    {"cluster", "dgx-h100"},
                                    {"parallel", {{"tp", 8}, {"pp", moe ? 8 : 1}, {"ep", moe ? 8 : 1}, {"dp", 8}}},
                                    {"training", {{"seq_len", 4096}, {"recompute", rec}, {"flash_attention", flash}, {"global_batch", 512}}}}));
                INFO(m << " recompute " << rec << " flash " << flash);
                const auto& st = r.step;
                CHECK(st.hfu >= st.mfu);
                if (std::string(rec) != "none" || flash) CHECK(st.hfu > st.mfu);
                // tflops_per_gpu is HFU's numerator; flops_per_token is MFU's.
                CHECK(st.tflops_per_gpu * 1e12 == Approx(st.hfu * r.input.cluster.gpu.peak_flops(dtype::bf16)).epsilon(1e-12));
                const double tokens = static_cast<double>(r.input.training.global_batch * r.input.training.seq_len);
                CHECK(r.flops_per_token * tokens / static_cast<double>(r.input.parallel.world()) ==
                      Approx(r.compute.model_flops_per_gpu).epsilon(1e-12));
            }
        }
    }
}

TEST_CASE("The report states its FLOP convention", "[flops]") {
    const json j = report_to_json(build_report(parse_scenario({{"model", "gpt-1.7b"}})));
    CHECK(j["step"]["flops_convention"] == flops_convention);
    CHECK(std::string(flops_convention).find("non-causal") != std::string::npos);
}

TEST_CASE("Nemotron-4 15B: 6N + 12·l·s·h = 9.40e10 FLOP/token, the count its MFU column uses", "[flops]") {
    // arXiv 2402.16819 Table 2 (tests/validation/nemotron4_table2.md): N = 12.48B non-embedding +
    // 1.57B output layer; non-causal attention 12·32·4096·6144. MFU 34.3% at 0.57 s on 768 GPUs.
    const scenario s = parse_scenario({{"model",
                                        {{"layers", 32},
                                         {"hidden", 6144},
                                         {"heads", 48},
                                         {"kv_heads", 8},
                                         {"attention", "gqa"},
                                         {"ffn_type", "gelu"},
                                         {"ffn_hidden", 24576},
                                         {"vocab", 256000},
                                         {"tied_embeddings", false},
                                         {"bias", false}}},
                                       {"cluster", "dgx-h100"},
                                       {"training", {{"seq_len", 4096}, {"flash_attention", true}, {"recompute", "none"}}}});
    const report r = build_report(s);
    const double l = 32, sq = 4096, h = 6144;
    const double N = l * (2 * h * h + 2 * h * 1024 + 2 * h * 24576) + h * 256000;
    CHECK(r.flops_per_token == Approx(6 * N + 12 * l * sq * h).epsilon(1e-9));
    CHECK(r.flops_per_token == Approx(9.40e10).epsilon(0.002));
}
