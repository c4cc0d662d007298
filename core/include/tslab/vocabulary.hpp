// The descriptor tables of the scenario's closed vocabularies besides schedules (schedule_table.hpp):
// dtypes, recompute modes, optimizers, precision recipes and the dtypes each precision field takes,
// context-parallel methods, mesh axes with the recommended order, and the default presets. Parsers,
// to_string and presets_json()'s "vocabulary" read these rows; describe() is one array access.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tslab {

enum class dtype { fp32, bf16, fp16, fp8, none };
enum class recompute_kind { none, selective, full, op };
enum class optimizer_kind { adamw, adam, sgd, muon, adafactor };
enum class cp_method_kind { ring, ulysses, usp, allgather };
enum class attention_kind { mha, gqa, mla };
enum class ffn_kind { gelu, swiglu };
enum class norm_kind { layernorm, rmsnorm };

struct dtype_desc {
    dtype kind;
    const char* name;
    std::int64_t bytes;  // storage bytes per element; none = not stored
};
inline constexpr std::array dtype_rows = {
    dtype_desc{dtype::fp32, "fp32", 4}, dtype_desc{dtype::bf16, "bf16", 2}, dtype_desc{dtype::fp16, "fp16", 2},
    dtype_desc{dtype::fp8, "fp8", 1},   dtype_desc{dtype::none, "none", 0},
};

struct recompute_desc {
    recompute_kind kind;
    const char* name;
    const char* label;
    // The planner tries the modes from the least recomputed work to the most (0 first), so that of two
    // plans of equal time the one recomputing less is found first (recompute_search_order).
    int search_rank;
    const char* source;
};
inline constexpr std::array recompute_rows = {
    recompute_desc{recompute_kind::none, "none", "no recompute", 0, "every layer keeps its activations for the backward"},
    recompute_desc{recompute_kind::selective, "selective", "selective recompute", 2,
                   "Korthikanti et al., arXiv 2205.05198 section 4.2.2 (attention core recomputed)"},
    recompute_desc{recompute_kind::full, "full", "full recompute", 3,
                   "Chen et al., arXiv 1604.06174; Korthikanti et al., arXiv 2205.05198 section 4.2 (layer input kept)"},
    recompute_desc{recompute_kind::op, "op", "op-level selective recompute", 1,
                   "torchtitan activation checkpointing, mode selective, selective_ac_option \"op\" (pytorch/torchtitan "
                   "activation_checkpoint.py, _save_list: matmul and fused attention outputs kept); norms, activation functions and "
                   "elementwise ops recomputed, and the unfused attention core where FlashAttention is off"},
};

// The optimizer's states, the one place they are counted: the memory ledger, the checkpoint size,
// the offloaded host update and the UI all read state_elems / moments.
struct optimizer_desc {
    optimizer_kind kind;
    const char* name;
    const char* label;
    int moments;  // states per element of a hidden (layer) matrix; a factored one keeps rows + cols instead
    int other_moments;  // states per element of embeddings, the head and vectors
    bool factored;  // second moment of a hidden matrix kept as row and column vectors
    const char* state_rule;
    const char* source;
    // State elements of one rows × cols tensor (matrix: a hidden layer's weight matrix).
    constexpr double state_elems(bool matrix, double rows, double cols) const {
        if (matrix && factored) return rows + cols;
        return (matrix ? moments : other_moments) * rows * cols;
    }
};
inline constexpr std::array optimizer_rows = {
    optimizer_desc{optimizer_kind::adamw, "adamw", "AdamW", 2, 2, false, "2 moments per parameter", "Loshchilov & Hutter, arXiv 1711.05101"},
    optimizer_desc{optimizer_kind::adam, "adam", "Adam", 2, 2, false, "2 moments per parameter", "Kingma & Ba, arXiv 1412.6980"},
    optimizer_desc{optimizer_kind::sgd, "sgd", "SGD with momentum", 1, 1, false, "1 momentum per parameter", "Polyak 1964 heavy ball"},
    optimizer_desc{optimizer_kind::muon, "muon", "Muon", 1, 2, false,
                   "1 momentum on hidden matrices; AdamW's 2 moments on embeddings, head and vectors",
                   "Jordan et al. 2024 (Muon); Kimi K2 arXiv 2507.20534 section 2.1"},
    // No momentum; the factored second moment is rows + cols per matrix, one value per element of a vector.
    optimizer_desc{optimizer_kind::adafactor, "adafactor", "Adafactor", 0, 1, true, "factored second moment: rows + cols per matrix, no momentum",
                   "Shazeer & Stern, arXiv 1804.04235"},
};

// The model's layer types (model.attention, model.ffn_type, model.norm): parsed once from these rows.
struct attention_desc {
    attention_kind kind;
    const char* name;
    const char* label;
    const char* source;
};
inline constexpr std::array attention_rows = {
    attention_desc{attention_kind::mha, "mha", "multi-head attention", "Vaswani et al., arXiv 1706.03762 (kv_heads = heads)"},
    attention_desc{attention_kind::gqa, "gqa", "grouped-query attention", "Ainslie et al., arXiv 2305.13245 (kv_heads < heads)"},
    attention_desc{attention_kind::mla, "mla", "multi-head latent attention", "DeepSeek-V2, arXiv 2405.04434 section 2.1 (model.mla ranks)"},
};
struct ffn_desc {
    ffn_kind kind;
    const char* name;
    const char* label;
    int matrices;  // weight matrices of one MLP
    const char* source;
};
inline constexpr std::array ffn_rows = {
    ffn_desc{ffn_kind::gelu, "gelu", "GELU MLP", 2, "Hendrycks & Gimpel, arXiv 1606.08415 (h -> ffn_hidden -> h)"},
    ffn_desc{ffn_kind::swiglu, "swiglu", "SwiGLU MLP", 3, "Shazeer, arXiv 2002.05202 (gate and up h -> ffn_hidden, down)"},
};
struct norm_desc {
    norm_kind kind;
    const char* name;
    const char* label;
    bool bias;  // a learned shift beside the scale
    const char* source;
};
inline constexpr std::array norm_rows = {
    norm_desc{norm_kind::layernorm, "layernorm", "LayerNorm", true, "Ba et al., arXiv 1607.06450"},
    norm_desc{norm_kind::rmsnorm, "rmsnorm", "RMSNorm", false, "Zhang & Sennrich, arXiv 1910.07467"},
};

// A named precision recipe: the dtype of each stored or computed quantity.
struct recipe_desc {
    const char* name;
    const char* label;
    dtype params, grads, master, optimizer, activations, gemm;
    const char* source;
};
inline constexpr std::array recipe_rows = {
    recipe_desc{"bf16-mixed", "BF16 mixed, fp32 master", dtype::bf16, dtype::bf16, dtype::fp32, dtype::fp32, dtype::bf16, dtype::bf16,
                "ZeRO, arXiv 1910.02054 section 3.1: 16-bit params and grads, fp32 master and 2 moments = 16P"},
    recipe_desc{"bf16-fp32-grads", "BF16, fp32 grads", dtype::bf16, dtype::fp32, dtype::fp32, dtype::fp32, dtype::bf16, dtype::bf16,
                "Megatron-LM default: gradients accumulated and reduced in fp32 (18P with Adam)"},
    recipe_desc{"fp16-mixed", "FP16 mixed, fp32 master", dtype::fp16, dtype::fp16, dtype::fp32, dtype::fp32, dtype::fp16, dtype::fp16,
                "Micikevicius et al., arXiv 1710.03740"},
    recipe_desc{"fp8-mixed", "FP8 GEMMs (DeepSeek-V3)", dtype::bf16, dtype::fp32, dtype::fp32, dtype::bf16, dtype::fp8, dtype::fp8,
                "DeepSeek-V3, arXiv 2412.19437 section 3.3: FP8 GEMMs, bf16 moments, fp32 master and grads, FP8-cached activations"},
    recipe_desc{"fp32", "FP32", dtype::fp32, dtype::fp32, dtype::none, dtype::fp32, dtype::fp32, dtype::fp32,
                "full precision: the params are the master copy"},
};

// A field of training.precision and the dtypes it accepts.
struct precision_field_desc {
    const char* name;
    std::array<bool, dtype_rows.size()> allowed;  // indexed by dtype
};
inline constexpr std::array precision_field_rows = {
    precision_field_desc{"params", {true, true, true, true, false}},
    precision_field_desc{"grads", {true, true, true, false, false}},
    precision_field_desc{"master", {true, false, false, false, true}},
    precision_field_desc{"optimizer", {true, true, false, true, false}},
    precision_field_desc{"activations", {true, true, true, true, false}},
    precision_field_desc{"gemm", {true, true, true, true, false}},
    // The DP gradient reduce-scatter / all-reduce: none = in the grads dtype (Megatron reduces the fp32
    // main_grad unless grad_reduce_in_bf16; MCore DistributedDataParallelConfig.grad_reduce_in_fp32).
    precision_field_desc{"reduce", {true, true, true, false, true}},
};

// How a context-parallel method shares K/V (context.hpp): which exchanges it runs and what the
// attention kernel then sees. ulysses: All-to-All of Q/K/V to head shards, the kernel sees the whole
// sequence; ring: K/V blocks passed around the group, one kernel per block (s/cp keys), each
// transfer under the previous block's kernel; allgather: K/V gathered whole before the kernel
// (s keys for the local s/cp queries), the gradient reduce-scattered after.
struct cp_method_desc {
    cp_method_kind kind;
    const char* name;
    const char* label;
    const char* source;
    bool alltoall;  // a Ulysses part: All-to-All over the ulysses degree
    bool ring;  // a ring part: K/V block passes over the ring degree
    bool allgather;  // K/V All-Gather forward, dK/dV ReduceScatter backward
};
inline constexpr std::array cp_method_rows = {
    cp_method_desc{cp_method_kind::ring, "ring", "Ring attention", "Liu et al., arXiv 2310.01889; Megatron-Core context parallelism", false, true,
                   false},
    cp_method_desc{cp_method_kind::ulysses, "ulysses", "DeepSpeed-Ulysses", "Jacobs et al., arXiv 2309.14509", true, false, false},
    cp_method_desc{cp_method_kind::usp, "usp", "USP (Ulysses × Ring)", "Fang & Zhao, arXiv 2405.07719", true, true, false},
    cp_method_desc{cp_method_kind::allgather, "allgather", "All-gather K/V (Llama 3)",
                   "Llama 3, arXiv 2407.21783 section 3.3.2 (context parallelism)", false, false, true},
};

// How the router spreads token-expert pairs over the experts (training.moe.routing.kind,
// expert_routing.hpp): the expected per-expert load each kind gives.
struct routing_desc {
    const char* name;
    const char* label;
    const char* source;
    const char* reads;  // the scenario field the kind reads besides its name ("" for none)
};
inline constexpr std::array routing_rows = {
    routing_desc{"uniform", "uniform top-k", "every expert equally likely; the busiest rank is the expected maximum of the sampling spread", ""},
    routing_desc{
        "zipf", "Zipf-skewed",
        "expert of popularity rank r gets a share ∝ (r+1)^−skew, capped at 1/top_k (Zipf 1949; hot experts as in DeepSeek-V3 section 3.4 EPLB)",
        "training.moe.routing.skew"},
    routing_desc{"histogram", "measured histogram", "one load per expert, in expert order (e.g. a router's per-expert token counts)",
                 "training.moe.routing.histogram"},
};

// An FP8 scaling recipe of the L8 table (numerics.hpp): the block each scale covers on the activation
// (rows × cols of the GEMM's A operand, K along cols) and on the weight, the scale's bytes and the
// accumulation. 0 × 0 means one scale for the whole tensor.
struct scaling_desc {
    const char* name;
    const char* label;
    bool fp8;  // GEMM inputs in FP8 (false: the BF16 baseline row)
    double act_rows, act_cols, weight_rows, weight_cols;
    double scale_bytes;  // fp32 = 4, E8M0 = 1
    double promote_every;  // K elements between fp32 promotions of the partial sums; 0 = in the MMA
    bool needs_mx;  // only on GPUs whose tensor cores apply MX scales (gpu_spec::mx_scaling)
    const char* accumulate;  // the message id of the accumulation in words (messages_report.cpp)
    const char* source;
};
inline constexpr std::array scaling_rows = {
    scaling_desc{"bf16", "BF16 mixed", false, 0, 0, 0, 0, 0, 0, false, "numerics.accumulate.bf16",
                 "Micikevicius et al., arXiv 1710.03740; ZeRO arXiv 1910.02054 section 3.1"},
    scaling_desc{"fp8-tensorwise", "FP8 per-tensor", true, 0, 0, 0, 0, 4, 0, false, "numerics.accumulate.fp8_tensorwise",
                 "Micikevicius et al., arXiv 2209.05433 (FP8 formats); Transformer Engine delayed/current scaling"},
    scaling_desc{"fp8-blockwise", "FP8 1×128 / 128×128 (DeepSeek-V3)", true, 1, 128, 128, 128, 4, 128, false, "numerics.accumulate.fp8_blockwise",
                 "DeepSeek-V3, arXiv 2412.19437 sections 3.3.1-3.3.2"},
    scaling_desc{"mxfp8", "MXFP8 (1×32, E8M0)", true, 1, 32, 1, 32, 1, 0, true, "numerics.accumulate.mxfp8",
                 "OCP Microscaling Formats (MX) v1.0; Rouhani et al., arXiv 2310.10537"},
};

// ZeRO stages (parallel.zero; Rajbhandari et al., arXiv 1910.02054 section 5): what each shards over
// the data-parallel group on top of the stage before it (memory.cpp reads the stage number).
// grads_reduced_per_microbatch: the stage keeps only a gradient shard, so under gradient accumulation
// (m > 1 micro-batches per step, pipeline micro-batches included) every micro-batch's backward
// reduce-scatters its whole gradients; keeping whole gradients until the last micro-batch instead
// costs ZeRO-1's gradient memory (PyTorch FSDP2 names the two choices, pytorch/pytorch PR 126166;
// DeepSpeed's PipelineEngine rejects ZeRO-2 and ZeRO-3 with pipeline parallelism,
// deepspeed/runtime/pipe/engine.py; Megatron Core's distributed optimizer does not distribute model
// gradients and reduce-scatters its whole gradient buffer once the backward passes finish: ZeRO-1 here,
// docs.nvidia.com/megatron-core, "Distributed Optimizer").
struct zero_stage_desc {
    int stage;
    const char* label;
    const char* shards;
    bool grads_reduced_per_microbatch;
    bool gathers_params;  // parameters sharded too: each layer's are all-gathered before use (its buffers)
    const char* source;
};
inline constexpr std::array zero_stage_rows = {
    zero_stage_desc{0, "DP (replicated)", "nothing", false, false, "arXiv 1910.02054 section 5"},
    zero_stage_desc{1, "ZeRO-1", "optimizer states and master weights", false, false, "arXiv 1910.02054 section 5"},
    zero_stage_desc{2, "ZeRO-2", "+ gradients", true, false, "arXiv 1910.02054 section 5"},
    zero_stage_desc{3, "ZeRO-3 (FSDP)", "+ parameters, gathered layer by layer", true, true, "arXiv 1910.02054 section 5"},
};

struct mesh_axis_desc {
    const char* name;
    const char* label;
};
inline constexpr std::array mesh_axis_rows = {
    mesh_axis_desc{"tp", "tensor"}, mesh_axis_desc{"cp", "context"},  mesh_axis_desc{"ep", "expert"},
    mesh_axis_desc{"dp", "data"},   mesh_axis_desc{"pp", "pipeline"},
};
// Megatron-Core's RankGenerator default: the first axis varies fastest (mesh.cpp).
inline constexpr const char* recommended_order = "tp-cp-ep-dp-pp";

// What a scenario without "model" or "cluster" gets (parse_scenario).
inline constexpr const char* default_model_preset = "gpt-1.7b";
inline constexpr const char* default_cluster_preset = "dgx-a100-80gb";

template <class Rows>
constexpr bool rows_in_enum_order(const Rows& rows) {
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (static_cast<std::size_t>(rows[i].kind) != i) return false;
    return true;
}
static_assert(rows_in_enum_order(dtype_rows) && rows_in_enum_order(recompute_rows) && rows_in_enum_order(optimizer_rows) &&
                  rows_in_enum_order(cp_method_rows) && rows_in_enum_order(attention_rows) && rows_in_enum_order(ffn_rows) &&
                  rows_in_enum_order(norm_rows),
              "rows must list their enum's values once, in order");

// The recompute modes in the planner's search order (recompute_desc::search_rank).
constexpr std::array<recompute_kind, recompute_rows.size()> recompute_search_order() {
    std::array<recompute_kind, recompute_rows.size()> out{};
    for (const auto& r : recompute_rows) out[static_cast<std::size_t>(r.search_rank)] = r.kind;
    return out;
}

inline const dtype_desc& describe(dtype t) { return dtype_rows[static_cast<std::size_t>(t)]; }
inline const recompute_desc& describe(recompute_kind r) { return recompute_rows[static_cast<std::size_t>(r)]; }
inline const optimizer_desc& describe(optimizer_kind o) { return optimizer_rows[static_cast<std::size_t>(o)]; }
// A CP method is parsed once into its kind (scenario_training.cpp): an unknown name is an error at its path.
inline const cp_method_desc& describe(cp_method_kind m) { return cp_method_rows[static_cast<std::size_t>(m)]; }
inline const char* to_string(cp_method_kind m) { return describe(m).name; }
inline const attention_desc& describe(attention_kind a) { return attention_rows[static_cast<std::size_t>(a)]; }
inline const ffn_desc& describe(ffn_kind f) { return ffn_rows[static_cast<std::size_t>(f)]; }
inline const norm_desc& describe(norm_kind n) { return norm_rows[static_cast<std::size_t>(n)]; }

// The row called `name`, or nullptr.
template <class Rows>
const typename Rows::value_type* find_row(const Rows& rows, std::string_view name) {
    for (const auto& r : rows)
        if (name == r.name) return &r;
    return nullptr;
}
// Every row's name, in table order (for field_reader::choice and its "did you mean").
template <class Rows>
std::vector<std::string> row_names(const Rows& rows) {
    std::vector<std::string> out;
    for (const auto& r : rows) out.emplace_back(r.name);
    return out;
}

const char* to_string(dtype t);
const char* to_string(recompute_kind r);
const char* to_string(optimizer_kind o);
std::int64_t dtype_bytes(dtype t);

}  // namespace tslab
