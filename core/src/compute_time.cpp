// FLOPs to seconds: GEMMs at their rate (gemm_rate.hpp), HBM-bound kernels at the HBM bandwidth,
// and the per-stage, per-chunk and per-step compute of one scenario, at the pace of the slowest GPU
// (sync.hpp).
#include "tslab/compute.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/activation.hpp"
#include "tslab/numerics.hpp"
#include "tslab/offload.hpp"
#include "tslab/params.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/schedule_table.hpp"
#include "tslab/sync.hpp"

namespace tslab {

namespace {

using D = double;

layer_time time_layer(const scenario& s, bool moe_layer) {
    const layer_work w = layer_forward_work(s, moe_layer);
    const gpu_spec& g = s.cluster.gpu;
    layer_time t;
    for (const auto& c : w.gemms) {
        const D x = gemm_time_s(g, s.training.precision.gemm, c);
        t.gemm += x;
        if (c.core) t.core += x;
        if (c.name.rfind("moe.experts", 0) == 0) t.expert += x;
        if (c.mla_up) t.mla_up += x;
    }
    t.memory = w.memory_bytes / g.hbm_bandwidth_Bps;
    t.core_memory = w.core_memory_bytes / g.hbm_bandwidth_Bps;
    // bytes read + written / HBM bandwidth (a calibration profile's 2 × device copy rate replaces
    // the preset's, scenario.cpp), only when FP8 GEMMs actually run.
    if (fp8_casts_active(s)) t.cast = fp8_cast_of(w.gemms, active_scaling(s.training.precision)).bytes / g.hbm_bandwidth_Bps;
    return t;
}

// Per-micro-batch seconds of `count` identical layers: forward, backward (and its weight-gradient
// part), extra forward of recompute.
struct pass_times {
    D fwd = 0, bwd = 0, wgrad = 0, rec = 0, gemm = 0, memory = 0, expert = 0;  // expert: fwd+bwd+rec
    D cast = 0;  // forward FP8 casts (the recompute forward's casts stay in rec)
};

// Flash's backward recomputes S: 5 core GEMMs against the forward's 2 (Dao, arXiv 2307.08691 section 3.1.2).
D core_backward(const scenario& s, D core_fwd) { return (s.training.flash_attention ? 2.5 : 2.0) * core_fwd; }

void add_layers(pass_times& p, const scenario& s, const layer_time& t, D count) {
    const D dense = t.gemm - t.core;
    const D core_bwd = core_backward(s, t.core);
    p.fwd += count * (t.gemm + t.memory + t.cast);
    p.cast += count * t.cast;
    p.gemm += count * t.gemm;
    p.memory += count * t.memory;
    p.bwd += count * (2 * dense + core_bwd + 2 * t.memory);  // backward kernels touch twice the bytes
    p.wgrad += count * dense;  // weight-gradient GEMMs = forward FLOPs
    const bool full = s.training.recompute == recompute_kind::full;
    if (full) p.rec += count * (t.gemm + t.memory + t.cast);
    p.expert += count * t.expert * (full ? 4 : 3);
    if (core_recomputed(s)) p.rec += count * (t.core + t.core_memory);
    if (mla_up_recomputed(s)) p.rec += count * t.mla_up;
    // Op-level: the HBM-bound work between the kept matmul outputs runs again (no GEMM besides the
    // unfused core above).
    if (s.training.recompute == recompute_kind::op) p.rec += count * (t.memory - t.core_memory);
}

// D MTP modules per micro-batch: each a transformer block, the 2d → d projection and one more
// pass of the shared head (forward 1×, backward 2× its GEMMs).
pass_times mtp_pass_times(const scenario& s, const stage_layer_times& t) {
    pass_times p;
    const D depth = static_cast<D>(s.training.mtp_depth);
    if (depth == 0) return p;
    add_layers(p, s, t.mtp_block, depth);
    const D extra = depth * (t.head + t.mtp_projection);
    p.fwd += extra, p.gemm += extra, p.bwd += 2 * extra, p.wgrad += extra;
    return p;
}

// The rank's local parameters before ZeRO: its stage's share of the model, split over TP.
D stage_params(const scenario& s, const param_counts& c, D layers_on_stage) {
    return static_cast<D>(c.total) * layers_on_stage / static_cast<D>(s.model.layers) / static_cast<D>(s.parallel.tp);
}

// One micro-batch's stored layer activations on the stage (activation.hpp), for activation offload.
D stage_activation_bytes(const scenario& s, const compute_estimate& e) {
    const D moe = static_cast<D>(e.stage_moe_layers), dense = static_cast<D>(e.stage_layers - e.stage_moe_layers);
    return (moe > 0 ? moe * layer_activation_bytes(s, true).total : 0) + (dense > 0 ? dense * layer_activation_bytes(s, false).total : 0);
}

// Adam-style step over the rank's local parameters, HBM-bound: read the gradient, read and write
// master params and the optimizer states, write the params.
D optimizer_seconds(const scenario& s, const param_counts& c, D layers_on_stage) {
    const auto& q = s.parallel;
    D local = stage_params(s, c, layers_on_stage);
    if (q.zero >= 1) local /= static_cast<D>(q.dp * q.cp);
    return local * optimizer_update_bytes(s) / s.cluster.gpu.hbm_bandwidth_Bps;
}

}  // namespace

double fp8_speedup(const scenario& s) {
    if (s.training.precision.gemm != dtype::fp8 || s.cluster.gpu.flops_fp8 <= 0) return 1.0;
    const gpu_spec& g = s.cluster.gpu;
    D at_bf16 = 0, at_fp8 = 0;
    const D moe = static_cast<D>(moe_layer_count(s.model)), dense = static_cast<D>(s.model.layers) - moe;
    for (const auto& [is_moe, count] : {std::pair{false, dense}, std::pair{true, moe}}) {
        if (count <= 0) continue;
        for (const auto& c : layer_forward_work(s, is_moe).gemms)
            if (c.fp8) at_bf16 += count * gemm_time_s(g, dtype::bf16, c), at_fp8 += count * gemm_time_s(g, dtype::fp8, c);
    }
    return at_fp8 > 0 ? at_bf16 / at_fp8 : 1.0;
}

void split_chunks(compute_estimate& e, std::int64_t vpp) {
    const D chunks = static_cast<D>(vpp);
    e.chunk_F_s = e.stage_F_s / chunks;
    e.chunk_W_s = e.stage_W_s / chunks;
    e.chunk_B_s = e.stage_B_s / chunks;
}

compute_estimate estimate_compute_time(const scenario& s) { return estimate_compute_time(s, count_params(s.model)); }

stage_split busiest_stage(const scenario& s) {
    const std::int64_t layers = (s.model.layers + s.parallel.pp - 1) / s.parallel.pp;
    return {layers, std::min(layers, moe_layer_count(s.model))};
}

double head_share(const scenario& s) {
    // DualPipe feeds micro-batches from both ends of the pipeline (DeepSeek-V3, arXiv 2412.19437
    // section 3.2.1): each of the two ranks holding the last stage runs it for half of them.
    return describe(s.training.schedule).placement == stage_placement::dual ? 0.5 : 1.0;
}

stage_split last_stage(const scenario& s) {
    const std::int64_t L = s.model.layers, pp = s.parallel.pp;
    const std::int64_t layers = L - chunk_first_layer(L, pp, pp - 1);
    return {layers, std::min(layers, moe_layer_count(s.model))};
}

stage_layer_times time_stage_layers(const scenario& s) {
    const stage_split st = busiest_stage(s);
    stage_layer_times t;
    if (st.layers > st.moe_layers) t.dense = time_layer(s, false);
    if (st.moe_layers > 0) t.moe = time_layer(s, true);
    t.head = gemm_time_s(s.cluster.gpu, s.training.precision.gemm, head_gemm(s));
    if (s.training.mtp_depth != 0) {  // mtp_pass_times reads them only then
        t.mtp_block = time_layer(s, mtp_block_is_moe(s.model));
        t.mtp_projection = gemm_time_s(s.cluster.gpu, s.training.precision.gemm, mtp_projection_gemm(s));
    }
    return t;
}

compute_estimate estimate_compute_time(const scenario& s, const param_counts& counts) {
    return estimate_compute_time(s, counts, time_stage_layers(s));
}

namespace {

// One stage's layers per micro-batch, and one layer's attention core and dense GEMMs (its MoE
// layer's where it has one, the larger).
struct stage_pass {
    pass_times p;
    D core = 0, dense_gemm = 0;
};

stage_pass stage_pass_of(const scenario& s, const stage_layer_times& times, const stage_split& st) {
    stage_pass out;
    if (st.layers > st.moe_layers) {
        const layer_time& t = times.dense;
        add_layers(out.p, s, t, static_cast<D>(st.layers - st.moe_layers));
        out.core = t.core, out.dense_gemm = t.gemm - t.core;
    }
    if (st.moe_layers > 0) {
        const layer_time& t = times.moe;
        add_layers(out.p, s, t, static_cast<D>(st.moe_layers));
        out.core = t.core, out.dense_gemm = t.gemm - t.core;
    }
    return out;
}

D pass_total(const pass_times& p) { return p.fwd + p.bwd + p.rec; }

// The stage the step waits on: the last one with its head and MTP modules, or one of ⌈L/pp⌉ layers
// where that is the heavier (the last holds fewer when pp does not divide L; compute.hpp last_stage).
struct busiest_pass {
    stage_split st;
    stage_pass pass;
    bool head = true;  // the head and MTP modules run on it
    D body_total = 0;  // fwd + bwd + recompute of a full ⌈L/pp⌉-layer stage without the head
};

// Every time of a pass scaled by w, plus b's (all of them, field by field).
pass_times scaled(const pass_times& a, D w, const pass_times& b = {}) {
    return {w * a.fwd + b.fwd,   w * a.bwd + b.bwd,       w * a.wgrad + b.wgrad,   w * a.rec + b.rec,
            w * a.gemm + b.gemm, w * a.memory + b.memory, w * a.expert + b.expert, w * a.cast + b.cast};
}

busiest_pass busiest_pass_of(const scenario& s, const stage_layer_times& times) {
    const stage_split last = last_stage(s), most = busiest_stage(s);
    const D share = head_share(s);
    const stage_pass with_head = stage_pass_of(s, times, last);
    const stage_pass body = most.layers == last.layers ? with_head : stage_pass_of(s, times, most);
    busiest_pass out{last, with_head, true, pass_total(body.p)};
    // DualPipe: the rank with the last stage holds the first too (schedule_shape.hpp, dual), each
    // run for half the micro-batches; the first stage has ⌈L/pp⌉ layers, as busiest_stage.
    if (share < 1) out.st = most, out.pass = {scaled(body.p, 0.5, scaled(with_head.p, 0.5)), with_head.core, with_head.dense_gemm};
    if (most.layers == last.layers && share == 1) return out;
    // The head as estimate_compute_time adds it: forward 1×, backward 2× its GEMMs.
    if (pass_total(out.pass.p) + 3 * times.head * share + pass_total(mtp_pass_times(s, times)) * share < pass_total(body.p))
        out.st = most, out.pass = body, out.head = false;
    return out;
}

}  // namespace

compute_estimate estimate_compute_time(const scenario& s, const param_counts& counts, const stage_layer_times& times) {
    compute_estimate e;
    const auto& q = s.parallel;
    e.microbatches = s.training.microbatches(q);
    const busiest_pass b = busiest_pass_of(s, times);
    // Its head, and its MTP modules (compute.hpp) counted like it, for the share of the micro-batches
    // that pass them on this rank.
    const D share = b.head ? head_share(s) : 0;
    const D head = times.head * share;
    const pass_times mtp = scaled(mtp_pass_times(s, times), share);
    const pass_times& p = b.pass.p;
    const D core = b.pass.core, dense_gemm = b.pass.dense_gemm;
    e.stage_layers = b.st.layers;
    e.stage_moe_layers = b.st.moe_layers;
    // Every time runs at the slowest GPU's pace (sync.hpp): k = 1 + its delay behind the median.
    const D k = 1 + slowest_gpu_delay(s.cluster.gpu_speed_cv, q.world());
    e.stage_F_s = k * p.fwd;
    e.stage_W_s = k * p.wgrad;
    e.stage_B_s = k * (p.bwd - p.wgrad + p.rec);
    split_chunks(e, q.vpp);
    e.fwd_s = k * (p.fwd + head + mtp.fwd);
    e.bwd_s = k * (p.bwd + 2 * head + mtp.bwd);
    e.wgrad_s = k * (p.wgrad + head + mtp.wgrad);
    e.recompute_s = k * (p.rec + mtp.rec);
    if (q.pp > 1 && b.head && b.body_total > 0) e.last_rank_load = std::max(1.0, (e.fwd_s + e.bwd_s + e.recompute_s) / (k * b.body_total));
    e.gemm_fwd_s = k * (p.gemm + head + mtp.gemm);
    e.memory_fwd_s = k * p.memory;
    e.attention_core_fwd_s = k * core;
    e.attention_core_bwd_s = k * core_backward(s, core);
    e.layer_dense_gemm_fwd_s = k * dense_gemm;
    e.optimizer_s = k * optimizer_seconds(s, counts, static_cast<D>(e.stage_layers));
    const D m = static_cast<D>(e.microbatches);
    if (s.training.offload.optimizer > 0 || s.training.offload.activations > 0) {
        const offload_cost o = offload_seconds(s, stage_params(s, counts, static_cast<D>(e.stage_layers)), stage_activation_bytes(s, e),
                                               e.fwd_s + e.bwd_s + e.recompute_s, e.microbatches);
        e.offload_optimizer_s = o.optimizer_s, e.offload_activations_s = o.activations_s, e.offload_optimizer_cpu_s = o.optimizer_cpu_s;
    }
    e.step_compute_s = m * (e.fwd_s + e.bwd_s + e.recompute_s) + e.optimizer_s + e.offload_optimizer_s + e.offload_activations_s;
    e.expert_step_s = k * m * p.expert;
    e.recompute_step_s = m * e.recompute_s;
    e.fp8_cast_s = k * (p.cast + mtp.cast);
    e.fp8_cast_step_s = m * e.fp8_cast_s;
    e.slowest_gpu_step_s = e.step_compute_s * (1 - 1 / k);
    return e;
}

compute_estimate estimate_compute(const scenario& s) {
    compute_estimate e = estimate_compute_time(s);
    const sequence_flops f = flops_per_sequence(s);
    const D sequences = static_cast<D>(s.training.global_batch), world = static_cast<D>(s.parallel.world());
    e.model_flops = sequences * f.model();
    e.hardware_flops = sequences * f.hardware();
    e.model_flops_per_gpu = e.model_flops / world;
    e.hardware_flops_per_gpu = e.hardware_flops / world;
    e.recompute_extra = f.recompute / f.model();
    e.fp8_speedup = fp8_speedup(s);
    return e;
}

}  // namespace tslab
