// The validated scenario (tslab/scenario@1): model, cluster, parallel plan, training recipe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "tslab/json_fields.hpp"
#include "tslab/schedule_table.hpp"
#include "tslab/vocabulary.hpp"

namespace tslab {

enum class ffn_kind { gelu, swiglu };
enum class attention_kind { mha, gqa, mla };
enum class norm_kind { layernorm, rmsnorm };
// dtype, recompute_kind and optimizer_kind: vocabulary.hpp; schedule_kind: schedule_table.hpp.

// Multi-head latent attention ranks (DeepSeek-V2 arXiv 2405.04434, section 2.1).
struct mla_spec {
    std::int64_t q_lora_rank = 0;  // 0: queries are not compressed
    std::int64_t kv_lora_rank = 512;
    std::int64_t qk_nope_head_dim = 128;
    std::int64_t qk_rope_head_dim = 64;
    std::int64_t v_head_dim = 128;
};

struct moe_spec {
    std::int64_t experts = 0;  // routed experts; 0 = dense model
    std::int64_t top_k = 0;
    std::int64_t shared_experts = 0;
    std::int64_t expert_ffn_hidden = 0;
    std::int64_t dense_layers = 0;  // the first layers keep a dense MLP
    double capacity_factor = 0;     // 0 = dropless
};

struct model_spec {
    std::string name;
    std::int64_t layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0;
    std::int64_t ffn_hidden = 0, vocab = 0, position_embeddings = 0;
    ffn_kind ffn = ffn_kind::gelu;
    attention_kind attention = attention_kind::mha;
    norm_kind norm = norm_kind::layernorm;
    bool tied_embeddings = false, bias = false, dropout = false;
    mla_spec mla;
    moe_spec moe;
    bool is_moe() const { return moe.experts > 0; }
};

struct link_spec {
    double bandwidth_Bps = 0;  // one direction, per GPU
    double latency_s = 0;
};

// Size-dependent GEMM efficiency eff(x) = max · x / (x + half_flops), x = FLOPs of one GEMM call
// on one rank (compute.hpp). Fitted per GPU; a calibration profile can replace it.
struct gemm_efficiency_spec {
    double max = 0.618;       // the A100 fit (compute_time.cpp), reused where a GPU has no fit of its own
    double half_flops = 5.957e8;
    bool fitted = false;      // true when the preset or the user supplied the values
};

struct gpu_spec {
    std::string name;
    double hbm_bytes = 0, hbm_bandwidth_Bps = 0;
    double flops_fp32 = 0, flops_tf32 = 0, flops_bf16 = 0, flops_fp16 = 0, flops_fp8 = 0;
    gemm_efficiency_spec gemm_efficiency;
    // Measured GEMM curves from cluster.calibration, one per dtype: where one exists for a GEMM's
    // dtype the compute model uses it instead of gemm_efficiency (compute.hpp gemm_time_s).
    std::vector<gemm_curve> gemm_curves;
    // Streaming multiprocessors: the EP all-to-all kernels hold training.moe.comm_sms of them.
    // Default 132, the H100/H800 count DeepSeek-V3 (arXiv 2412.19437 section 3.2.2) reasons with.
    std::int64_t sms = 132;
    double peak_flops(dtype t) const;
    const gemm_curve* measured_curve(dtype t) const;
};

struct cluster_spec {
    std::string name;
    gpu_spec gpu;
    std::int64_t gpus_per_node = 8, nodes = 0;  // 0 before resolution: as many as the plan needs
    link_spec intra_node, inter_node, host;
    json calibration;  // raw tslab/calibration@1 object, null when absent
    // Where the figures come from: "preset: dgx-h100", "custom", or the profile's source()
    // ("calibrated: NVIDIA H200 ×8, 2026-12-01") when cluster.calibration was applied.
    std::string source;
    // The parsed cluster.calibration. When present, its fitted links replace intra_node /
    // inter_node, its copy and host-link figures replace gpu.hbm_bandwidth_Bps and host, and
    // its GEMM curves (gemm_curve in calibration.hpp) are what the compute model should use.
    std::optional<calibration_profile> profile;
};

// The member initializers of parallel_spec and training_spec (and the specs they hold) are the
// scenario's defaults: the parser reads them, and so does presets_json()'s "vocabulary.defaults".
struct parallel_spec {
    std::int64_t dp = 1, tp = 1, pp = 1, vpp = 1, ep = 1, etp = 1, cp = 1;
    std::string cp_method = cp_method_rows[0].name;
    bool sp = false;
    int zero = 0;
    std::string order = recommended_order;
    std::int64_t world() const { return dp * tp * pp * cp; }
};

struct precision_spec {
    std::string recipe = recipe_rows[0].name;  // bf16-mixed; the fields below are its row
    dtype params = dtype::bf16, grads = dtype::bf16, master = dtype::fp32;
    dtype optimizer = dtype::fp32, activations = dtype::bf16, gemm = dtype::bf16;
};

struct offload_spec {
    double optimizer = 0;    // fraction of optimizer states (and master copy) kept in host memory
    double activations = 0;  // fraction of stored layer activations kept in host memory
};

struct overlap_spec {
    double dp = 0, tp = 0, pp = 0, ep = 0, cp = 0;  // fraction of each axis' traffic hidden
    // Megatron-Core bucketed DP overlap (megatron/core/distributed/distributed_data_parallel_config.py):
    // grad_reduce = overlap_grad_reduce (bucket reduce-scatter / all-reduce under the last
    // micro-batch's backward), param_gather = overlap_param_gather (bucket all-gather under the next
    // forward). bucket_elems 0 = MCore's default max(40M, 1M × DP size). See dp_overlap.hpp.
    bool grad_reduce = false, param_gather = false;
    double bucket_elems = 0;
};

// L6 routing inputs (training.moe): the busiest/mean load of the EP ranks (0: the expected maximum
// of uniform top-k routing, expert.hpp) and redundant expert slots over the EP group (EPLB/MoonEP).
struct moe_training_spec {
    double imbalance = 0;
    std::int64_t redundant_experts = 0;
    // SMs the EP dispatch/combine kernels hold while they run (DeepEP's default Buffer.num_sms = 20;
    // DeepSeek-V3 section 3.2.2: 20 SMs suffice for IB and NVLink); overlapped compute loses them.
    std::int64_t comm_sms = 20;
};

// L9 inputs (training.reliability). Defaults: the Llama 3 anchor (arXiv 2407.21783 section 3.3.4,
// 419 unexpected interruptions in 54 days on 16,384 GPUs), its storage's sustained 2 TB/s
// (section 3.3.1) and an assumed 10-minute restart. job_mtbf_s > 0 overrides the per-GPU rate.
// checkpoint_interval_s 0 = Daly's optimum for the blocking time; async_checkpoint: the job stalls
// only for the device-to-host snapshot, the storage write runs behind training (reliability.hpp).
struct reliability_spec {
    double gpu_failure_rate_per_hour = 419.0 / (54.0 * 24.0 * 16384.0);
    double job_mtbf_s = 0;
    double checkpoint_storage_Bps = 2e12;
    double restart_s = 600;
    double checkpoint_interval_s = 0;
    bool async_checkpoint = false;
};

struct training_spec {
    std::int64_t seq_len = 2048, micro_batch = 1, global_batch = 0;
    bool global_batch_given = false;  // false: global_batch is the auto rule's (global_batch.hpp)
    recompute_kind recompute = recompute_kind::none;
    bool flash_attention = true;
    precision_spec precision;
    optimizer_kind optimizer = optimizer_kind::adamw;
    offload_spec offload;
    schedule_kind schedule = schedule_kind::one_f_one_b;
    overlap_spec overlap;
    moe_training_spec moe;
    reliability_spec reliability;
    // Micro-batches per step for one pipeline: global_batch / (micro_batch * dp).
    std::int64_t microbatches(const parallel_spec& p) const { return global_batch / (micro_batch * p.dp); }
};

struct scenario {
    model_spec model;
    cluster_spec cluster;
    parallel_spec parallel;
    training_spec training;
    // The model and cluster parts as given (preset names or objects; the cluster without its
    // "calibration", which cluster.calibration keeps): scenario_json.hpp writes them back.
    json model_input, cluster_input;
};

// Parse and validate a tslab/scenario@1 document. Throws input_error naming the path.
scenario parse_scenario(const json& doc);
scenario parse_scenario_text(const std::string& text);

// The cross-field rules of a scenario (divisibility, expert-DP, context, schedule preconditions,
// global batch), shared by the parser and the planner. Returns true when `s` obeys them; otherwise
// false, and when `why` is given it receives the input_error the parser throws. Checking without
// `why` formats nothing, so a search can test millions of plans cheaply.
struct rule_violation {
    std::string path, reason;
};
bool plan_rules_hold(const scenario& s, rule_violation* why = nullptr);

}  // namespace tslab
