// Preset tables. Every number carries its source; sources are repeated in each preset's "source".
#include "tslab/presets.hpp"

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/units.hpp"

namespace tslab {

namespace {

struct named {
    const char* name;
    json value;
};

// Megatron GPT (learned positions, LayerNorm with bias, GeLU MLP 4h, tied embeddings, dropout).
json gpt(long layers, long hidden, long heads, const char* source) {
    return json{{"layers", layers},
                {"hidden", hidden},
                {"heads", heads},
                {"ffn_type", "gelu"},
                {"ffn_hidden", 4 * hidden},
                {"vocab", 51200},
                {"position_embeddings", 2048},
                {"norm", "layernorm"},
                {"bias", true},
                {"dropout", true},
                {"tied_embeddings", true},
                {"source", source}};
}

// Llama 3 (GQA with 8 KV heads, SwiGLU, RMSNorm, RoPE, untied), arXiv 2407.21783 Table 3.
json llama3(long layers, long hidden, long heads, long ffn) {
    return json{{"layers", layers},
                {"hidden", hidden},
                {"heads", heads},
                {"kv_heads", 8},
                {"attention", "gqa"},
                {"ffn_type", "swiglu"},
                {"ffn_hidden", ffn},
                {"vocab", 128256},
                {"norm", "rmsnorm"},
                {"tied_embeddings", false},
                {"source", "Llama 3 herd, arXiv 2407.21783 Table 3; vocab 128256"}};
}

// A DeepSeek-style MoE with MLA (DeepSeek-V2 arXiv 2405.04434 section 2; V3 arXiv 2412.19437
// section 4.2; Kimi K2 keeps V3's shape with other heads, experts and dense layers). The MLA ranks
// are the same in all three: q_lora_rank 1536, kv_lora_rank 512, head dims 128 + 64 (RoPE), v 128.
// groups, topk_groups: the router's group limit (config.json n_group, topk_group).
struct mla_moe_shape {
    long layers, hidden, heads, ffn, vocab;
    long experts, top_k, shared, expert_ffn, dense_layers, groups, topk_groups;
};
json mla_moe(const mla_moe_shape& m, const char* source) {
    return json{{"layers", m.layers},
                {"hidden", m.hidden},
                {"heads", m.heads},
                {"kv_heads", m.heads},
                {"attention", "mla"},
                {"mla", {{"q_lora_rank", 1536}, {"kv_lora_rank", 512}, {"qk_nope_head_dim", 128}, {"qk_rope_head_dim", 64}, {"v_head_dim", 128}}},
                {"ffn_type", "swiglu"},
                {"ffn_hidden", m.ffn},
                {"vocab", m.vocab},
                {"norm", "rmsnorm"},
                {"tied_embeddings", false},
                {"moe",
                 {{"experts", m.experts},
                  {"top_k", m.top_k},
                  {"shared_experts", m.shared},
                  {"expert_ffn_hidden", m.expert_ffn},
                  {"dense_layers", m.dense_layers},
                  {"groups", m.groups},
                  {"topk_groups", m.topk_groups}}},
                {"source", source}};
}

const std::vector<named>& models() {
    static const char* t1 = "Narayanan et al., arXiv 2104.04473 Table 1";
    static const std::vector<named> table = {
        {"gpt-1.7b", gpt(24, 2304, 24, t1)},
        {"gpt-3.6b", gpt(30, 3072, 32, t1)},
        {"gpt-7.5b", gpt(36, 4096, 32, t1)},
        {"gpt-18.4b", gpt(40, 6144, 48, t1)},
        {"gpt-22b", gpt(48, 6144, 64, "Korthikanti et al., arXiv 2205.05198 Table 3")},
        {"gpt-39.1b", gpt(48, 8192, 64, t1)},
        {"gpt-76.1b", gpt(60, 10240, 80, t1)},
        {"gpt-145.6b", gpt(80, 12288, 96, t1)},
        {"gpt-175b", gpt(96, 12288, 96, "Korthikanti et al., arXiv 2205.05198 Table 3 (GPT-3)")},
        {"gpt-310.1b", gpt(96, 16384, 128, t1)},
        {"gpt-530b", gpt(105, 20480, 128, "arXiv 2104.04473 Table 1 (529.6B); arXiv 2205.05198 Table 3")},
        {"gpt-1t", gpt(128, 25600, 160, "arXiv 2104.04473 Table 1 (1008.0B); arXiv 2205.05198 Table 3")},
        {"llama3-8b", llama3(32, 4096, 32, 14336)},
        {"llama3-70b", llama3(80, 8192, 64, 28672)},
        {"llama3-405b", llama3(126, 16384, 128, 53248)},
        // DeepSeek-V2: 60 layers, hidden 5120, 128 heads; every FFN but the first is MoE with 2 shared
        // and 160 routed experts of width 1536, 6 routed per token, routed to at most 3 devices
        // (section 3.1.2 and 2.2.2; config.json: first layer's intermediate_size 12288, vocab 102400,
        // n_group 8, topk_group 3).
        {"deepseek-v2",
         mla_moe({60, 5120, 128, 12288, 102400, 160, 6, 2, 1536, 1, 8, 3},
                 "DeepSeek-V2, arXiv 2405.04434 sections 2.2 and 3.1.2 (236B total, 21B activated); config.json")},
        // DeepSeek-V3 routes each token within the 4 best of 8 expert groups (n_group 8, topk_group 4;
        // section 4.2: "each token will be ensured to be sent to at most 4 nodes"); Kimi K2's
        // config.json has n_group 1, topk_group 1 (plain top-8).
        {"deepseek-v3",
         mla_moe({61, 7168, 128, 18432, 129280, 256, 8, 1, 2048, 3, 8, 4},
                 "DeepSeek-V3, arXiv 2412.19437 section 4.2 (671B total, 37B active); config.json n_group 8, topk_group 4")},
        {"kimi-k2",
         mla_moe({61, 7168, 64, 18432, 163840, 384, 8, 1, 2048, 1, 1, 1},
                 "Kimi K2, arXiv 2507.20534 abstract and model card (1T total, 32B activated)")},
    };
    return table;
}

json gpu(const char* name, double hbm_bytes, double hbm_bw, double fp32, double tf32, double bf16, double fp8, int sms, const char* source) {
    return json{{"name", name},
                {"hbm_bytes", hbm_bytes},
                {"hbm_bandwidth_Bps", hbm_bw},
                {"sms", sms},
                {"flops", {{"fp32", fp32}, {"tf32", tf32}, {"bf16", bf16}, {"fp16", bf16}, {"fp8", fp8}}},
                {"source", source}};
}

// The standalone GEMM ceilings of a GPU (gemm_rate.hpp): measured TFLOP/s of the best shape over
// the datasheet's dense peak, from the Maximum Achievable Matmul FLOPS (MAMF) tables of S. Bekman,
// "Machine Learning Engineering" (github.com/stas00/ml-engineering, compute/accelerator/README.md,
// "Maximum Achievable Matmul FLOPS comparison table", BF16 and FP8 rows). fp8 0: no FP8 row. The
// knee (half_flops) follows from the per-call time, the in-step share is fitted (gemm_rate.cpp).
// attention_max: the FlashAttention kernel's plateau share of the 16-bit peak (gemm_rate.cpp).
json with_gemm(json g, double bf16_tflops, double bf16_peak, double fp8_tflops, double fp8_peak, const char* source, double attention_max = 0.635) {
    json e = {{"bf16", {{"max", bf16_tflops / bf16_peak}}}, {"attention", {{"max", attention_max}}}, {"source", source}};
    if (fp8_tflops > 0) e["fp8"] = {{"max", fp8_tflops / fp8_peak}};
    g["gemm_efficiency"] = std::move(e);
    return g;
}

json with_mx(json g) {
    g["mx_scaling"] = true;
    return g;
}

const std::vector<named>& gpus() {
    // Peak FLOP/s are dense (no 2:4 sparsity). HBM sizes: HBM stacks are binary-sized, so the
    // marketed "80GB" is 80 GiB (nvidia-smi shows 81920 MiB on A100 80GB).
    static const std::vector<named> table = {
        // NVIDIA A100 Tensor Core GPU datasheet (2021), SXM column: 19.5 TF FP32, 156 TF TF32,
        // 312 TF BF16/FP16 dense, 80GB HBM2e at 2,039 GB/s; no FP8.
        // GEMM: MAMF BF16 row "NVIDIA A100 SXM": 271.2 of 312 TFLOP/s (86.9%).
        {"a100-sxm4-80gb",
         with_gemm(gpu("A100-SXM4-80GB", 80 * gib_bytes, 2.039e12, 19.5e12, 156e12, 312e12, 0, 108,
                       "NVIDIA A100 datasheet, SXM 80GB column; 108 SMs (A100 whitepaper)"),
                   271.2, 312, 0, 0, "MAMF table (stas00/ml-engineering): A100 SXM BF16 271.2 TFLOP/s; FlashAttention-2 up to 73% (arXiv 2307.08691)",
                   0.72)},
        // NVIDIA H100 datasheet, SXM column: 67 TF FP32, 494.5 TF TF32 (989 sparse), 989.5 TF BF16,
        // 1979 TF FP8 dense (half the sparse figures), 80GB HBM3 at 3.35 TB/s.
        // GEMM: MAMF rows "NVIDIA H100 SXM": BF16 794.5 TFLOP/s, FP8 1402.6 TFLOP/s.
        {"h100-sxm5-80gb",
         with_gemm(gpu("H100-SXM5-80GB", 80 * gib_bytes, 3.35e12, 67e12, 494.5e12, 989.5e12, 1979e12, 132,
                       "NVIDIA H100 datasheet, SXM column (dense = sparse / 2); 132 SMs (H100 whitepaper)"),
                   794.5, 989.5, 1402.6, 1979, "MAMF table (stas00/ml-engineering): H100 SXM BF16 794.5, FP8 1402.6 TFLOP/s")},
        // NVIDIA H200 datasheet, SXM column: same compute as H100 SXM, 141GB HBM3e at 4.8 TB/s.
        // GEMM: MAMF BF16 "H200 is the same" as H100 SXM (794.5); FP8 row "NVIDIA H200 SXM": 1453.4.
        {"h200-sxm-141gb",
         with_gemm(gpu("H200-SXM-141GB", 141e9, 4.8e12, 67e12, 494.5e12, 989.5e12, 1979e12, 132,
                       "NVIDIA H200 datasheet, SXM column (141 GB = 141e9 bytes); the H100's 132 SMs"),
                   794.5, 989.5, 1453.4, 1979, "MAMF table (stas00/ml-engineering): H200 SXM BF16 as H100 (794.5), FP8 1453.4 TFLOP/s")},
        // H800 SXM: H100 compute and memory with NVLink cut to 400 GB/s (DeepSeek-V3 arXiv
        // 2412.19437 section 3.1 describes its cluster).
        // GEMM: no H800 row in the MAMF table; the H800 has the H100 SXM's compute, so its rows.
        {"h800-sxm5-80gb",
         with_gemm(gpu("H800-SXM5-80GB", 80 * gib_bytes, 3.35e12, 67e12, 494.5e12, 989.5e12, 1979e12, 132,
                       "NVIDIA H800 SXM product brief (H100 compute, 400 GB/s NVLink); 132 SMs (arXiv 2412.19437 section 3.2.2)"),
                   794.5, 989.5, 1402.6, 1979, "MAMF table (stas00/ml-engineering): the H100 SXM rows (same compute)")},
        // NVIDIA DGX B200 datasheet: 1,440 GB HBM3e for 8 GPUs (180 GB each), 64 TB/s total
        // (8 TB/s each); Blackwell datasheet: 2.25 PF BF16 and 4.5 PF FP8 dense per B200.
        // GEMM: MAMF rows "NVIDIA B200 SXM": BF16 1745.0 of 2250, FP8 3432.5 of 4500 TFLOP/s.
        // Blackwell tensor cores apply MX block scales (E8M0 per 32 elements) in the MMA (OCP MX v1.0).
        {"b200-sxm-180gb",
         with_mx(with_gemm(gpu("B200-SXM-180GB", 180e9, 8e12, 75e12, 1.1e15, 2.25e15, 4.5e15, 148,
                               "NVIDIA DGX B200 datasheet (per GPU = total / 8), dense figures; 148 SMs (74 per die, Chips and Cheese B200 article)"),
                           1745.0, 2250, 3432.5, 4500, "MAMF table (stas00/ml-engineering): B200 SXM BF16 1745.0, FP8 3432.5 TFLOP/s"))},
    };
    return table;
}

json link(double bw, double lat) { return json{{"bandwidth_Bps", bw}, {"latency_s", lat}}; }

json cluster(const char* gpu_name, json intra, json inter, json host, double host_memory_Bps, const char* source) {
    return json{{"gpu", gpu_name},
                {"gpus_per_node", 8},
                {"intra_node", std::move(intra)},
                {"inter_node", std::move(inter)},
                {"host", std::move(host)},
                {"host_memory_bandwidth_Bps", host_memory_Bps},
                {"source", source}};
}

const std::vector<named>& clusters() {
    // Bandwidths are per GPU, one direction. Latencies are per-message software+wire latencies
    // typical of NCCL (a few microseconds on NVLink, more across InfiniBand); calibrate to replace.
    // host_memory_bandwidth_Bps: the node's two CPU sockets' DRAM peak, channels × transfer rate × 8 B.
    static const std::vector<named> table = {
        // DGX A100: NVLink3 600 GB/s bidirectional per GPU; 8x HDR 200 Gb/s HCAs (25 GB/s per GPU);
        // PCIe Gen4 x16 host link (32 GB/s per direction); 2x AMD EPYC 7742, 8 channels of DDR4-3200
        // each (AMD: 204.8 GB/s per socket).
        {"dgx-a100-80gb",
         cluster("a100-sxm4-80gb", link(300e9, 3e-6), link(25e9, 6e-6), link(32e9, 10e-6), 409.6e9, "NVIDIA DGX A100 user guide / datasheet")},
        // DGX H100: NVLink4 900 GB/s bidirectional per GPU; 8x ConnectX-7 400 Gb/s (50 GB/s per GPU);
        // PCIe Gen5 x16 (64 GB/s per direction); 2x Intel Xeon Platinum 8480C, 8 channels of
        // DDR5-4800 each (Intel: 307.2 GB/s per socket).
        {"dgx-h100", cluster("h100-sxm5-80gb", link(450e9, 3e-6), link(50e9, 5e-6), link(64e9, 10e-6), 614.4e9, "NVIDIA DGX H100 datasheet")},
        // HGX H200: same fabric as HGX H100 (NVLink4 900 GB/s, 400 Gb/s NIC per GPU); the host of
        // NVIDIA's own H200 systems (DGX H200: 2x Xeon Platinum 8480C).
        {"hgx-h200", cluster("h200-sxm-141gb", link(450e9, 3e-6), link(50e9, 5e-6), link(64e9, 10e-6), 614.4e9, "NVIDIA HGX H200 datasheet")},
        // HGX H800: NVLink 400 GB/s bidirectional; DeepSeek-V3 (arXiv 2412.19437 section 3.2.1)
        // cites IB 50 GB/s per GPU and NVLink 160 GB/s achieved. Host: not published; taken as the
        // DGX H100's.
        {"hgx-h800",
         cluster("h800-sxm5-80gb", link(200e9, 3e-6), link(50e9, 5e-6), link(64e9, 10e-6), 614.4e9,
                 "NVIDIA H800 brief; DeepSeek-V3 arXiv 2412.19437 section 3.2.1")},
        // DGX B200: NVLink5 1.8 TB/s bidirectional per GPU; 8x ConnectX-7 400 Gb/s; PCIe Gen5;
        // 2x Intel Xeon Platinum 8570, 8 channels of DDR5-5600 each (358.4 GB/s per socket).
        {"dgx-b200", cluster("b200-sxm-180gb", link(900e9, 3e-6), link(50e9, 5e-6), link(64e9, 10e-6), 716.8e9, "NVIDIA DGX B200 datasheet")},
    };
    return table;
}

std::vector<std::string> names_of(const std::vector<named>& table) {
    std::vector<std::string> out;
    for (const auto& n : table) out.emplace_back(n.name);
    return out;
}

json find(const std::vector<named>& table, const std::string& name, const std::string& path, const char* what) {
    for (const auto& n : table)
        if (name == n.name) return n.value;
    const std::string near = closest_name(name, names_of(table));
    // One id per kind ("preset.unknown_model", "preset.unknown_gpu_near", ...), so each catalog words the kind.
    message_args args{{"name", name}};
    if (!near.empty()) args.emplace_back("near", near);
    throw input_error(path, msg(fmt::format("preset.unknown_{}{}", what, near.empty() ? "" : "_near"), std::move(args)));
}

}  // namespace

json model_preset(const std::string& name, const std::string& path) {
    json m = find(models(), name, path, "model");
    m["name"] = name;
    return m;
}
json cluster_preset(const std::string& name, const std::string& path) {
    json c = find(clusters(), name, path, "cluster");
    c["name"] = name;
    return c;
}
json gpu_preset(const std::string& name, const std::string& path) { return find(gpus(), name, path, "gpu"); }

std::vector<std::string> model_preset_names() { return names_of(models()); }
std::vector<std::string> cluster_preset_names() { return names_of(clusters()); }
std::vector<std::string> gpu_preset_names() { return names_of(gpus()); }

json presets_json() {
    json out = {{"schema", "tslab/presets@1"}, {"models", json::object()}, {"clusters", json::object()}, {"gpus", json::object()}};
    for (const auto& n : models()) out["models"][n.name] = n.value;
    for (const auto& n : clusters()) out["clusters"][n.name] = n.value;
    for (const auto& n : gpus()) out["gpus"][n.name] = n.value;
    out["vocabulary"] = vocabulary_json();
    return out;
}

}  // namespace tslab
