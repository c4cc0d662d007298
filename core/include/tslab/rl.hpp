// L9's RL loop and its checkpoint what-ifs: one RL iteration as train → reshard → rollout → reward
// on the scenario's GPUs, the KV cache of its rollouts, and goodput against GPU count.
//
// Why a separate `tslab rl` command and not a training.rl section of the scenario: the report is
// one optimizer step of one training layout, and every figure in it is per step. An RL iteration
// wraps that step with an inference workload (another layout, the decode engine's batch, a length
// distribution of trajectories) and the goodput curve is a sweep over world sizes, not a property
// of one plan. Putting them in the report would add fields that mean nothing for pre-training
// scenarios; the command takes the scenario as is and reports the iteration around its step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/json_fields.hpp"
#include "tslab/reliability.hpp"
#include "tslab/scenario.hpp"
#include "tslab/sync.hpp"  // normal_quantile

namespace tslab {

// The rollout and reward inputs ("rl" of a tslab/rl@1 spec). Response lengths are log-normal
// with the given median and shape σ, cut at context_tokens − prompt_tokens.
struct rl_spec {
    std::int64_t rollout_batch = 512;  // trajectories per iteration
    std::int64_t prompt_tokens = 1024;
    std::int64_t response_median_tokens = 4096;
    double tail_sigma = 1.0;
    std::int64_t context_tokens = 32768;  // the longest prompt + response the engine admits
    std::int64_t inference_tp = 8;  // GPUs per decode replica (tensor parallel)
    std::string reshard_link = "inter_node";  // or "intra_node": the mesh link the new weights cross
    std::string reward = "policy";  // "policy": a forward of a policy-sized model; "rule": none on GPU
    double reward_efficiency = 0.4;  // assumed fraction of peak for the reward forward
    std::int64_t weight_bytes = 2, kv_bytes = 2;  // BF16 weights and KV cache (fp8: 1)
};

// KV-cache bytes per token over all layers. MHA/GQA: 2 (K and V) · layers · kv_heads · head_dim ·
// bytes. MLA caches the compressed latent and the decoupled RoPE key instead (DeepSeek-V2 arXiv
// 2405.04434 section 2.1.2, Table 1: (d_c + d_h^R) · l elements): layers · (kv_lora_rank +
// qk_rope_head_dim) · bytes.
double kv_bytes_per_token(const model_spec& m, double bytes_per_elem);

// How many TP ranks split one token's KV: GQA heads split up to kv_heads ways; MLA's latent is
// shared by all heads, so every TP rank keeps all of it (1).
double kv_tp_shards(const model_spec& m, std::int64_t tp);

// Log-normal response lengths: P(R > t), and the expected maximum of n draws by Blom's
// plotting position, exp(μ + σ·Φ⁻¹((n − 0.375)/(n + 0.25))) (Blom 1958; μ = ln median).
double lognormal_survival(double t, double median, double sigma);
double expected_max_lognormal(double n, double median, double sigma);

// Weight resharding as a checkpoint engine does it (Kimi K2 arXiv 2507.20534, RL infrastructure;
// github.com/MoonshotAI/checkpoint-engine): the trained weights are broadcast, pipelined, to the
// inference layout; every inference GPU receives its 1/inference_tp shard over `link`:
// time = bytes per GPU / link bandwidth + latency.
double reshard_time_s(double weight_bytes, std::int64_t inference_tp, const link_spec& link);

struct rl_phase {
    std::string id;  // "train", "reshard", "rollout", "reward"
    double time_s = 0, share = 0;
};

struct rl_result {
    // kv_peak_bytes_per_gpu: the most KV cache one GPU of a replica holds, expected active sequences ×
    // (prompt + tokens decoded so far) × kv_bytes_per_token / kv_tp_shards, at the end of a step.
    double kv_bytes_per_token = 0, kv_peak_bytes_per_gpu = 0, weight_bytes_per_gpu = 0, hbm_bytes = 0;
    bool fits = true;
    double replicas = 0, trajectories_per_replica = 0;
    double response_mean_tokens = 0, response_max_tokens = 0, tokens = 0;
    double decode_memory_bound_share = 0;  // of rollout time, steps where bytes / bandwidth binds
    // Trajectory slots empty while the longest trajectory decodes: 1 − E[min(R, max)] / max per slot
    // (a replica whose trajectories are done waits for the slowest replica).
    double tail_idle_fraction = 0;
    double reshard_bytes_per_gpu = 0, train_steps = 0, step_s = 0;
    std::vector<rl_phase> phases;
    // idle_s = rollout time × tail_idle_fraction: GPU time held for trajectories that have already
    // finished while the longest one still decodes (synchronous RL waits for the whole batch).
    double iteration_s = 0, idle_s = 0, idle_share = 0;
};

// One synchronous, colocated iteration: all GPUs train, reshard, roll out, then score.
rl_result rl_iteration(const scenario& s, const rl_spec& r, double step_s);

// Goodput at each GPU count with the scenario's checkpoint policy (the checkpoint and per-GPU
// snapshot stay those of the scenario's plan).
std::vector<reliability_report> goodput_curve(const scenario& s, double snapshot_bytes_per_gpu, const std::vector<double>& gpus);

// The facade entry point (CLI `tslab rl` and wasm rl()): a tslab/rl@1 spec
// {"scenario": {...}, "rl": {...}, "gpus": [...]} in, the tslab/rl@1 result out.
std::string rl_json_text(const std::string& spec_text);

}  // namespace tslab
