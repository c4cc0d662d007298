// One RL iteration (train → reshard → rollout → reward), its KV cache and decode roofline, and the
// goodput curve against GPU count. The decode model is the roofline (Williams, Waterman and
// Patterson, CACM 52(4) 2009): a decode step takes max(bytes read / HBM bandwidth, FLOPs / peak);
// at the batch sizes of rollouts the bytes (weights once per step plus every active sequence's KV)
// bind, as Pope et al. arXiv 2211.05102 section 2 work out for transformer decoding.
#include "tslab/rl.hpp"

#include <algorithm>
#include <cmath>

#include "tslab/params.hpp"

namespace tslab {

double kv_bytes_per_token(const model_spec& m, double bytes_per_elem) {
    const double layers = static_cast<double>(m.layers);
    if (m.attention == attention_kind::mla) return layers * static_cast<double>(m.mla.kv_lora_rank + m.mla.qk_rope_head_dim) * bytes_per_elem;
    return 2 * layers * static_cast<double>(m.kv_heads * m.head_dim) * bytes_per_elem;
}

double kv_tp_shards(const model_spec& m, std::int64_t tp) {
    if (m.attention == attention_kind::mla) return 1;
    return static_cast<double>(std::min(tp, m.kv_heads));
}

double lognormal_survival(double t, double median, double sigma) {
    if (t <= 0) return 1;
    if (sigma <= 0) return t < median ? 1 : 0;
    return 0.5 * std::erfc((std::log(t) - std::log(median)) / (sigma * std::sqrt(2.0)));
}

double expected_max_lognormal(double n, double median, double sigma) {
    if (n <= 1) return median * std::exp(0.5 * sigma * sigma) * (n < 1 ? 0 : 1);
    return median * std::exp(sigma * normal_quantile((n - 0.375) / (n + 0.25)));
}

double reshard_time_s(double weight_bytes, std::int64_t inference_tp, const link_spec& link) {
    return weight_bytes / static_cast<double>(inference_tp) / link.bandwidth_Bps + link.latency_s;
}

namespace {

struct decode_shape {
    double weights_touched_bytes = 0;  // per GPU per step at full batch
    double dense_bytes = 0, expert_bytes = 0;
    double flops_per_token = 0;  // per GPU: 2 · active params / tp
    double attn_flops_per_ctx = 0;  // per GPU per token per context position
    double kv_per_token_gpu = 0;
};

// Decode attention FLOPs per new token per cached position: 2 · heads · (d_k + d_v) per layer
// (QKᵀ and PV). MLA decodes with the up-projections absorbed (DeepSeek-V2 section 2.1.2), so
// d_k = kv_lora_rank + rope and d_v = kv_lora_rank.
double attention_flops_per_position(const model_spec& m) {
    double dk = static_cast<double>(m.head_dim), dv = dk;
    if (m.attention == attention_kind::mla) {
        dk = static_cast<double>(m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
        dv = static_cast<double>(m.mla.kv_lora_rank);
    }
    return 2.0 * static_cast<double>(m.layers * m.heads) * (dk + dv);
}

decode_shape decode_shape_of(const model_spec& m, const rl_spec& r) {
    const param_counts p = count_params(m);
    const double tp = static_cast<double>(r.inference_tp);
    decode_shape d;
    d.expert_bytes = static_cast<double>(p.expert_total) * static_cast<double>(r.weight_bytes) / tp;
    d.dense_bytes = static_cast<double>(p.total - p.expert_total) * static_cast<double>(r.weight_bytes) / tp;
    d.flops_per_token = 2.0 * static_cast<double>(p.active) / tp;
    d.attn_flops_per_ctx = attention_flops_per_position(m) / tp;
    d.kv_per_token_gpu = kv_bytes_per_token(m, static_cast<double>(r.kv_bytes)) / kv_tp_shards(m, r.inference_tp);
    return d;
}

// Fraction of a MoE layer's experts that a decode step with `batch` tokens touches, with uniform
// top-k routing: 1 − (1 − k/E)^batch. Dense models: 1.
double experts_touched(const model_spec& m, double batch) {
    if (!m.is_moe()) return 1;
    const double k = static_cast<double>(m.moe.top_k), e = static_cast<double>(m.moe.experts);
    return 1 - std::pow(1 - k / e, std::max(batch, 1.0));
}

struct rollout_sums {
    double time_s = 0, memory_bound_s = 0, slot_steps = 0, kv_peak = 0;
};

// Σ over decode steps t < response_max of max(bytes_t / HBM bw, FLOPs_t / peak), with the expected
// active sequences B·P(R > t) (at least the longest one), integrated in up to 4096 slices.
rollout_sums decode_rollout(const scenario& s, const rl_spec& r, double batch, double t_max) {
    const decode_shape d = decode_shape_of(s.model, r);
    const double bw = s.cluster.gpu.hbm_bandwidth_Bps;
    const double peak = s.cluster.gpu.peak_flops(r.weight_bytes == 1 ? dtype::fp8 : dtype::bf16);
    const double slices = std::max(1.0, std::min(t_max, 4096.0)), dt = t_max / slices;
    const double median = static_cast<double>(r.response_median_tokens), prompt = static_cast<double>(r.prompt_tokens);
    rollout_sums out;
    for (double i = 0; i < slices; ++i) {
        const double t = (i + 0.5) * dt, ctx = prompt + t;
        const double expected = batch * lognormal_survival(t, median, r.tail_sigma);
        const double active = std::max(1.0, expected);  // the slowest replica keeps its longest one
        const double kv = active * ctx * d.kv_per_token_gpu;  // read by the slice's average step
        const double bytes = d.dense_bytes + d.expert_bytes * experts_touched(s.model, active) + kv;
        const double flops = active * (d.flops_per_token + d.attn_flops_per_ctx * ctx);
        const double step = std::max(bytes / bw, flops / peak);
        out.time_s += step * dt;
        if (bytes / bw >= flops / peak) out.memory_bound_s += step * dt;
        out.slot_steps += expected * dt;  // a typical replica: idle once its trajectories are done
        // Held at the slice's last step: P + t + dt/2 tokens per sequence, so fixed-length responses
        // peak at B·(P + T) tokens, the whole prompt and response of every trajectory.
        out.kv_peak = std::max(out.kv_peak, active * (ctx + 0.5 * dt) * d.kv_per_token_gpu);
    }
    return out;
}

// E[min(R, cap)] = ∫₀^cap P(R > t) dt, by the midpoint rule over 4096 slices.
double mean_response(const rl_spec& r, double cap) {
    const double n = 4096, dt = cap / n;
    double sum = 0;
    for (double i = 0; i < n; ++i) sum += lognormal_survival((i + 0.5) * dt, static_cast<double>(r.response_median_tokens), r.tail_sigma);
    return sum * dt;
}

double reward_time_s(const scenario& s, const rl_spec& r, double tokens) {
    if (r.reward == "rule") return 0;
    const double flops = 2.0 * static_cast<double>(count_params(s.model).active) * tokens;  // forward only
    return flops / (static_cast<double>(s.parallel.world()) * s.cluster.gpu.peak_flops(dtype::bf16) * r.reward_efficiency);
}

void add_phases(rl_result& o, double train_s, double reshard_s, double rollout_s, double reward_s) {
    o.phases = {{"train", train_s, 0}, {"reshard", reshard_s, 0}, {"rollout", rollout_s, 0}, {"reward", reward_s, 0}};
    for (const auto& p : o.phases) o.iteration_s += p.time_s;
    for (auto& p : o.phases) p.share = p.time_s / o.iteration_s;
    o.idle_s = rollout_s * o.tail_idle_fraction;
    o.idle_share = o.idle_s / o.iteration_s;
}

}  // namespace

rl_result rl_iteration(const scenario& s, const rl_spec& r, double step_s) {
    rl_result o;
    const double world = static_cast<double>(s.parallel.world()), batch = static_cast<double>(r.rollout_batch);
    const double cap = static_cast<double>(r.context_tokens - r.prompt_tokens);
    o.replicas = world / static_cast<double>(r.inference_tp);
    o.trajectories_per_replica = std::ceil(batch / o.replicas);
    o.response_mean_tokens = mean_response(r, cap);
    o.response_max_tokens = std::min(cap, expected_max_lognormal(batch, static_cast<double>(r.response_median_tokens), r.tail_sigma));
    o.tokens = batch * (static_cast<double>(r.prompt_tokens) + o.response_mean_tokens);
    const rollout_sums roll = decode_rollout(s, r, o.trajectories_per_replica, o.response_max_tokens);
    o.kv_bytes_per_token = kv_bytes_per_token(s.model, static_cast<double>(r.kv_bytes));
    o.kv_peak_bytes_per_gpu = roll.kv_peak;
    o.weight_bytes_per_gpu = static_cast<double>(count_params(s.model).total * r.weight_bytes) / static_cast<double>(r.inference_tp);
    o.hbm_bytes = s.cluster.gpu.hbm_bytes;
    o.fits = o.weight_bytes_per_gpu + o.kv_peak_bytes_per_gpu <= o.hbm_bytes;
    o.decode_memory_bound_share = roll.memory_bound_s / roll.time_s;
    o.tail_idle_fraction = 1 - roll.slot_steps / (o.trajectories_per_replica * o.response_max_tokens);
    const double weights = static_cast<double>(count_params(s.model).total * r.weight_bytes);
    o.reshard_bytes_per_gpu = weights / static_cast<double>(r.inference_tp);
    const link_spec& link = r.reshard_link == "intra_node" ? s.cluster.intra_node : s.cluster.inter_node;
    // Train on the rollout's tokens in optimizer steps of the scenario's global batch.
    o.step_s = step_s;
    o.train_steps = o.tokens / static_cast<double>(s.training.global_batch * s.training.seq_len);
    add_phases(o, o.train_steps * step_s, reshard_time_s(weights, r.inference_tp, link), roll.time_s, reward_time_s(s, r, o.tokens));
    return o;
}

std::vector<reliability_report> goodput_curve(const scenario& s, double snapshot_bytes_per_gpu, const std::vector<double>& gpus) {
    std::vector<reliability_report> out;
    const reliability_report here = reliability_of_scenario(s, snapshot_bytes_per_gpu);
    const double world = static_cast<double>(s.parallel.world());
    const double rate = 1.0 / (here.mtbf_s * world);  // the scenario's per-GPU rate
    for (double n : gpus) {
        checkpoint_inputs in;
        in.total_bytes = here.checkpoint.total();
        in.snapshot_bytes_per_gpu = snapshot_bytes_per_gpu;
        in.storage_Bps = s.training.reliability.checkpoint_storage_Bps;
        in.host_Bps = s.cluster.host.bandwidth_Bps;
        in.rate_per_gpu_s = rate;
        in.gpus = n;
        in.restart_s = s.training.reliability.restart_s;
        in.interval_s = s.training.reliability.checkpoint_interval_s;
        in.async = s.training.reliability.async_checkpoint;
        out.push_back(checkpoint_policy(in));
        out.back().checkpoint = here.checkpoint;
    }
    return out;
}

}  // namespace tslab
