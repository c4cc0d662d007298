// The validated scenario (tslab/scenario@1): model, cluster, parallel plan, training recipe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tslab/calibration.hpp"
#include "tslab/json_fields.hpp"
#include "tslab/messages.hpp"
#include "tslab/schedule_table.hpp"
#include "tslab/vocabulary.hpp"

namespace tslab {

// dtype, recompute_kind, optimizer_kind, attention_kind, ffn_kind, norm_kind: vocabulary.hpp;
// schedule_kind: schedule_table.hpp.

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
    double capacity_factor = 0;  // 0 = dropless
    // Group-limited routing (DeepSeek-V3 arXiv 2412.19437 section 2.1.2; config.json n_group,
    // topk_group): the router first keeps the topk_groups best of `groups` equal, contiguous blocks
    // of experts and picks top_k inside them. topk_groups ≥ groups = plain top-k. With experts laid out in order
    // over the EP ranks this bounds the nodes a token reaches (expert_dispatch.hpp).
    std::int64_t groups = 1, topk_groups = 1;
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

// Standalone GEMM rate of one dtype on one GPU (gemm_rate.hpp): eff(x) = max · x / (x + half_flops)
// of that dtype's datasheet peak, x = the FLOPs of one GEMM call on one rank. `max` is what the best
// large GEMM reaches alone (a matmul benchmark); half_flops 0 derives the knee from the per-call
// overhead: half_flops = call_overhead_s × peak × max (the call takes overhead + x / (peak · max)).
struct gemm_efficiency_spec {
    double max = 0.869;  // the A100 SXM BF16 measurement (the default GPU; presets.cpp cites it)
    double half_flops = 0;  // 0: from gemm_rates::call_overhead_s
    bool fitted = false;  // true when a preset or the user supplied the values
};

// The GEMM rate model of a GPU: one standalone curve per GEMM dtype, the fixed time of one call, and
// the share of the standalone rate that GEMMs keep inside a training step (in_step, fitted to the
// training set: tests/validation/). A calibration profile's measured curves replace bf16/fp8.
// The FlashAttention kernel's rate against the 16-bit peak as a function of the keys one call walks
// (gemm_rate.hpp): eff(L) = max · L / (L + half_keys). The H100 values fit FlashAttention-3's forward
// (head dim 128) in the pytorch/benchmark table of PR #2391 (430 TFLOP/s at 512 keys, 621 at 16k),
// minimax in log rate (test_gemm_rate.cpp refits it).
struct attention_rate_spec {
    double max = 0.635;
    double half_keys = 230;
};

struct gemm_rates {
    attention_rate_spec attention;  // FlashAttention kernels (the attention core when Flash is on)
    gemm_efficiency_spec bf16;  // 16-bit GEMMs (bf16, fp16); fp32 and tf32 GEMMs reuse its max
    gemm_efficiency_spec fp8;  // FP8 GEMMs; max 0: no FP8 measurement, the 16-bit curve's max
    double call_overhead_s = 6.9e-6;  // launch and pipeline fill of one call: fit to XLA's sm_90 table (gemm_rate.cpp)
    double in_step = 0.815;  // fitted with cluster.gpu_speed_cv (validation_fit.hpp; gemm_rate.cpp)
};

struct gpu_spec {
    std::string name;
    double hbm_bytes = 0, hbm_bandwidth_Bps = 0;
    double flops_fp32 = 0, flops_tf32 = 0, flops_bf16 = 0, flops_fp16 = 0, flops_fp8 = 0;
    gemm_rates gemm;
    // Measured GEMM curves from cluster.calibration, one per dtype: where one exists for a GEMM's
    // dtype the compute model uses it instead of the curve in `gemm` (gemm_rate.hpp gemm_time_s).
    std::vector<gemm_curve> gemm_curves;
    // Streaming multiprocessors: the EP all-to-all kernels hold training.moe.comm_sms of them.
    // Default 132, the H100/H800 count DeepSeek-V3 (arXiv 2412.19437 section 3.2.2) reasons with.
    std::int64_t sms = 132;
    // Tensor cores that apply MX block scales (E8M0 per 32 elements) inside the MMA: Blackwell
    // (OCP Microscaling Formats spec v1.0; NVIDIA Blackwell architecture brief). Enables mxfp8 (numerics.hpp).
    bool mx_scaling = false;
    double peak_flops(dtype t) const;
    // The standalone curve GEMMs of dtype t use: fp8 where measured, else the 16-bit one.
    const gemm_efficiency_spec& gemm_curve_of(dtype t) const;
    const gemm_curve* measured_curve(dtype t) const;
};

struct cluster_spec {
    std::string name;
    gpu_spec gpu;
    std::int64_t gpus_per_node = 8, nodes = 0;  // 0 before resolution: as many as the plan needs
    link_spec intra_node, inter_node, host;
    // DRAM bandwidth of one node's host CPUs, all sockets together (datasheet peak): the optimizer
    // update of offloaded states runs there, for every GPU of the node (offload.hpp). Default: the
    // DGX A100's two AMD EPYC 7742, 8 channels of DDR4-3200 each (2 × 204.8 GB/s).
    double host_memory_bandwidth_Bps = 409.6e9;
    // Coefficient of variation of the per-GPU compute speed (power, thermal and silicon spread; Sinha
    // et al., SC22, arXiv 2208.11035): synchronous training runs at the slowest GPU (sync.hpp).
    // Fitted with gemm_rates::in_step to the training set (gemm_rate.cpp); 0 = identical GPUs.
    double gpu_speed_cv = 0.034;
    json calibration;  // raw tslab/calibration@1 object, null when absent
    // Where the figures come from: "preset: dgx-h100", "custom", or the profile's source()
    // ("calibrated: NVIDIA H200 ×8, 2026-12-01") when cluster.calibration was applied.
    std::string source;
    // The parsed cluster.calibration. When present, its fitted links replace intra_node /
    // inter_node, its copy and host-link figures replace gpu.hbm_bandwidth_Bps and host, and
    // its GEMM curves (gemm_curve in calibration.hpp) are what the compute model should use.
    std::optional<calibration_profile> profile;
};

// The largest parallel degree (and world size) an input may name: 2^20 ranks.
inline constexpr std::int64_t max_parallel_degree = 1 << 20;

// The member initializers of parallel_spec and training_spec (and the specs they hold) are the
// scenario's defaults: the parser reads them, and so does presets_json()'s "vocabulary.defaults".
struct parallel_spec {
    std::int64_t dp = 1, tp = 1, pp = 1, vpp = 1, ep = 1, etp = 1, cp = 1;
    cp_method_kind cp_method = cp_method_kind::ring;
    bool sp = false;
    int zero = 0;
    std::string order = recommended_order;
    std::int64_t world() const { return dp * tp * pp * cp; }
};

struct precision_spec {
    std::string recipe = recipe_rows[0].name;  // bf16-mixed; the fields below are its row
    dtype params = dtype::bf16, grads = dtype::bf16, master = dtype::fp32;
    dtype optimizer = dtype::fp32, activations = dtype::bf16, gemm = dtype::bf16;
    dtype reduce = dtype::none;  // the DP gradient reduction; none: in the grads dtype
    dtype reduce_dtype() const { return reduce == dtype::none ? grads : reduce; }
};

struct offload_spec {
    double optimizer = 0;  // fraction of optimizer states (and master copy) kept in host memory
    double activations = 0;  // fraction of stored layer activations kept in host memory
    // ZeRO-Offload's delayed parameter update (DPU, arXiv 2101.06840 section 5.2): the host update of
    // step i runs under step i+1's forward and backward, which use the params of step i-1.
    bool delayed_update = false;
};

struct overlap_spec {
    double dp = 0, tp = 0, pp = 0, ep = 0, cp = 0;  // fraction of each axis' traffic hidden
    // Megatron-Core bucketed DP overlap (megatron/core/distributed/distributed_data_parallel_config.py):
    // grad_reduce = overlap_grad_reduce (bucket reduce-scatter / all-reduce under the last
    // micro-batch's backward), param_gather = overlap_param_gather (bucket all-gather under the next
    // forward). bucket_elems 0 = MCore's default max(40M, 1M × DP size). See dp_overlap.hpp.
    bool grad_reduce = false, param_gather = false;
    double bucket_elems = 0;
    // TransformerEngine's userbuffers overlap (NeMo/Megatron tp_comm_overlap): each SP AllGather and
    // ReduceScatter is split into tp ring-exchange chunks that run under the GEMM they feed or drain
    // (tp_overlap.hpp). Needs parallel.sp; excludes the fixed fraction `tp`.
    bool tp_comm = false;
};

// L6 routing inputs (training.moe): the busiest/mean load of the EP ranks (0: the expected maximum
// of uniform top-k routing, expert.hpp) and redundant expert slots over the EP group (EPLB/MoonEP).
// training.moe.routing: how the router spreads token-expert pairs over the experts (expert_routing.hpp).
// kind: a routing_rows name (vocabulary.hpp); skew: the Zipf exponent; histogram: one load per expert.
struct routing_spec {
    std::string kind = "uniform";
    double skew = 1.0;
    std::vector<double> histogram;
};

struct moe_training_spec {
    double imbalance = 0;
    std::int64_t redundant_experts = 0;
    routing_spec routing;
    // Node-limited routing: each token's experts lie on at most node_limit nodes, so it crosses the
    // network at most that many times (DeepSeek-V3 arXiv 2412.19437 section 2.1.2, M = 4); 0 = no limit.
    std::int64_t node_limit = 0;
    // SMs the EP dispatch/combine kernels hold while they run (DeepEP's default Buffer.num_sms = 20;
    // DeepSeek-V3 section 3.2.2: 20 SMs suffice for IB and NVLink); overlapped compute loses them.
    std::int64_t comm_sms = 20;
    // The 1F1B steady phase runs each forward with a backward, so each one's EP all-to-all hides under
    // the other's compute at the price of comm_sms (Megatron-Core overlap_moe_expert_parallel_comm with
    // delay_wgrad_compute; Kimi K2 arXiv 2507.20534 section 2.4.2). Interleaved 1F1B, or one stage
    // (pair_steady_allowed); ep ≥ 2; DualPipe pairs its chunks anyway (schedule_request::pair_steady).
    bool a2a_overlap = false;
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
    // Multi-token prediction depth D (DeepSeek-V3, arXiv 2412.19437 section 2.2): D extra modules
    // on the last pipeline stage, each a transformer block + projection sharing embedding and head.
    std::int64_t mtp_depth = 0;
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
    std::string path, reason;  // reason: the English text of msg
    message msg;
};
bool plan_rules_hold(const scenario& s, rule_violation* why = nullptr);
// The same rules in two parts, for a search that varies the micro-batch and schedule within a
// layout: plan_rules_hold(s) == layout_rules_hold(s) && schedule_rules_hold(s). The layout part
// (tensor, expert and context rules) reads the degrees, the CP method, sp, the TP overlap, the
// model, the sequence and the cluster, never the micro-batch, schedule, vpp, ZeRO or recompute;
// the schedule part is the global batch and the schedule's preconditions.
bool layout_rules_hold(const scenario& s);
bool schedule_rules_hold(const scenario& s);

}  // namespace tslab
