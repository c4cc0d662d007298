// L3 compute: GEMM FLOPs per layer and micro-batch (MHA, GQA, MLA, GeLU/SwiGLU MLP, MoE experts,
// router, head), model vs hardware FLOPs, and their time under a size-dependent GEMM efficiency.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/gemm_rate.hpp"
#include "tslab/params.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// Forward work of one transformer layer for one micro-batch on one rank (after TP, CP, EP).
struct layer_work {
    std::vector<gemm_call> gemms;
    double gemm_flops = 0;  // executed forward GEMM FLOPs (hardware)
    double model_flops = 0;  // forward GEMM FLOPs with the full s×s score matrix (model)
    double core_flops = 0;  // executed attention-core part of gemm_flops
    double memory_bytes = 0;  // HBM bytes of memory-bound forward work (norms, activation
        // functions, residual adds, dropout, softmax without Flash)
    double core_memory_bytes = 0;  // the softmax/dropout part of memory_bytes (selective recompute)
    double mla_up_flops = 0;  // MLA up-projection GEMMs (mla_up_recomputed, activation.hpp)
};

// Causal masks are assumed (decoder LMs). Model FLOPs count the whole s×s score matrix, as
// Narayanan et al. (arXiv 2104.04473) eq. 3 and the usual MFU do; hardware FLOPs halve the core
// under FlashAttention, which skips fully masked blocks (Dao, arXiv 2307.08691 section 3.1).
layer_work layer_forward_work(const scenario& s, bool moe_layer);

// The output head (logits) GEMM of one micro-batch on the last stage, vocab-parallel over TP.
gemm_call head_gemm(const scenario& s);

// Multi-token prediction (DeepSeek-V3, arXiv 2412.19437 section 2.2, eq. 21): each of the
// training.mtp_depth modules projects [RMSNorm(h); RMSNorm(Emb(t_{i+k}))] (2d) to d with M_k, runs
// one transformer block (MoE when the model is) and the shared output head. The projection GEMM:
gemm_call mtp_projection_gemm(const scenario& s);
bool mtp_block_is_moe(const model_spec& m);

struct compute_estimate {
    std::int64_t microbatches = 0;
    std::int64_t stage_layers = 0, stage_moe_layers = 0;  // on the busiest (last) pipeline stage
    // Per micro-batch on the busiest stage. bwd_s includes the weight-gradient part wgrad_s;
    // recompute_s is the extra forward of selective or full recompute.
    double fwd_s = 0, bwd_s = 0, wgrad_s = 0, recompute_s = 0;
    double gemm_fwd_s = 0, memory_fwd_s = 0;  // the split of fwd_s
    // One layer's attention core (QKᵀ and AV, or the FlashAttention kernel) for one micro-batch,
    // forward and backward: what ring CP's K/V passes run under (cp_overlap.hpp).
    double attention_core_fwd_s = 0, attention_core_bwd_s = 0;
    // One layer's GEMMs outside the attention core (QKV, output, MLP or experts), forward, one
    // micro-batch: what the SP collectives run under with training.overlap.tp_comm (tp_overlap.hpp).
    double layer_dense_gemm_fwd_s = 0;
    // Per-chunk costs for the pipeline simulator (one chunk = stage / vpp): F, B (input grad,
    // with recompute), W (weight grad), FB = F + B + W.
    double chunk_F_s = 0, chunk_B_s = 0, chunk_W_s = 0;
    double stage_F_s = 0, stage_B_s = 0, stage_W_s = 0;  // the same for the whole stage (vpp = 1)
    // The busiest rank's fwd + bwd + recompute per micro-batch over a full ⌈L/pp⌉-layer stage's,
    // where the rank holding the last stage (its layers, the head and MTP modules, at DualPipe's
    // half share) binds; 1 where a full stage does.
    double last_rank_load = 1;
    double optimizer_s = 0;  // memory-bound optimizer step, once per step
    double expert_step_s = 0;  // the routed-expert part of step_compute_s (L6 scales it by imbalance)
    double recompute_step_s = 0;  // m × recompute_s
    // FP8 cast (quantise) kernels of the forward GEMM inputs, HBM-bound (numerics.hpp fp8_cast_of):
    // per micro-batch (inside fwd_s and the chunk F costs) and per step, m × fp8_cast_s. 0 unless
    // fp8_casts_active. bytes / hbm_bandwidth_Bps per layer, summed over the busiest stage's layers.
    double fp8_cast_s = 0, fp8_cast_step_s = 0;
    double step_compute_s = 0;  // m × (fwd + bwd + recompute) + optimizer, busiest stage
    double offload_optimizer_s = 0, offload_activations_s = 0;  // host time per step (offload.hpp)
    double offload_optimizer_cpu_s = 0;  // of offload_optimizer_s: the host CPUs' update (offload.hpp)
    double slowest_gpu_step_s = 0;  // the part of step_compute_s that is the slowest GPU's delay (sync.hpp)
    // FLOPs per step: whole job and per GPU (job / world), in flops_convention (below): model
    // FLOPs exclude recompute; hardware FLOPs add it. Both count the full score matrix.
    double model_flops = 0, hardware_flops = 0;
    double model_flops_per_gpu = 0, hardware_flops_per_gpu = 0;
    double recompute_extra = 0;  // hardware / model − 1 attributable to recompute
    double fp8_speedup = 1;  // the FP8-eligible GEMMs' time at bf16 / at fp8, from the curves (L8)
};

compute_estimate estimate_compute(const scenario& s);
// The FP8-eligible GEMMs of the model (all layers, forward) timed at bf16 over timed at fp8, each on
// its dtype's curve (gemm_rate.hpp): the speed-up FP8 gives them; 1 when the recipe's GEMMs are not fp8.
double fp8_speedup(const scenario& s);
// Sets chunk_F_s, chunk_B_s, chunk_W_s for a stage split into `vpp` chunks (interleaved 1F1B,
// arXiv 2104.04473 section 2.2); nothing else in the estimate depends on vpp.
void split_chunks(compute_estimate& e, std::int64_t vpp);
// The time fields only (FLOP totals, recompute_extra and fp8_speedup left at their defaults): the
// same doubles as estimate_compute, for searches that need the step time and not the FLOP counts.
compute_estimate estimate_compute_time(const scenario& s);
// The same with the model's parameter counts given (count_params(s.model)): a search that times
// many plans of one model counts its tensors once instead of once per plan.
compute_estimate estimate_compute_time(const scenario& s, const param_counts& counts);

// Forward time of one layer for one micro-batch: GEMMs at their efficiency, memory-bound bytes at
// HBM bandwidth, FP8 casts.
struct layer_time {
    double gemm = 0, core = 0, memory = 0, core_memory = 0, expert = 0;
    double mla_up = 0;  // the MLA up-projection GEMMs (gemm_call::mla_up)
    double cast = 0;  // FP8 cast kernels of the forward GEMM inputs (numerics.hpp fp8_cast_of), HBM-bound
    bool operator==(const layer_time&) const = default;
};
// The forward times estimate_compute_time builds on: the busiest stage's dense and MoE layer (each
// where the stage has one), the output head and the MTP block and projection (where the model has
// MTP). They read the layout (tp, pp, cp and its method, ep, etp, sp), the micro-batch, sequence,
// precision, FlashAttention and the GPU; never recompute, ZeRO, offload, schedule or vpp, so a
// search that varies only those reuses one set (the estimate from them is the same doubles).
struct stage_layer_times {
    layer_time dense, moe, mtp_block;
    double head = 0, mtp_projection = 0;
    bool operator==(const stage_layer_times&) const = default;
};
stage_layer_times time_stage_layers(const scenario& s);
// A stage's layers, MoE layers at the end. pp enters the layer times only through which of the two
// kinds the busiest stage holds.
struct stage_split {
    std::int64_t layers, moe_layers;
};
// The most layers a stage holds, ⌈L/pp⌉: the first L mod pp stages take one more than the rest
// (schedule_shape.hpp chunk_first_layer, the memory ledger's split).
stage_split busiest_stage(const scenario& s);
// The last stage's layers under that split (⌊L/pp⌋ where pp does not divide L): the stage that also
// runs the output head, the loss and the MTP modules. estimate_compute_time times the heavier of it
// and a busiest_stage (Llama 3, arXiv 2407.21783 section 3.3.2, takes a layer off the last stage for
// this imbalance); with pp dividing L the two hold as many layers, and the last stage is the heavier.
stage_split last_stage(const scenario& s);
// The share of the micro-batches that run the last stage (its head and MTP modules) on a rank that
// holds it: ½ under DualPipe, which holds it on two ranks, each also holding the first stage (the
// estimate then takes half of each stage's work on that rank), else 1.
double head_share(const scenario& s);
compute_estimate estimate_compute_time(const scenario& s, const param_counts& counts, const stage_layer_times& times);

// The one FLOP convention of every count in the report (model.flops_per_token, step.mfu, step.hfu,
// step.tflops_per_gpu, *_flops_per_gpu): each GEMM counts 2·m·n·k and the attention scores count
// the whole s×s matrix, masked or not (non-causal), as PaLM (Chowdhery et al., arXiv 2204.02311
// appendix B: 6N + 12·L·H·Q·T per token) and Narayanan et al. (arXiv 2104.04473 eq. 3) do; the
// training set's MFU figures use it too (tests/validation/*.md). Model FLOPs: forward + backward
// (2× forward), no recompute. Hardware FLOPs: model FLOPs + everything run again (the recompute
// forward, and FlashAttention's backward recompute of QKᵀ), so HFU ≥ MFU always. What kernels
// skip (Flash's fully masked blocks) changes the time, never the count.
inline constexpr const char* flops_convention =
    "PaLM appendix B / Narayanan eq. 3: GEMM FLOPs 2mnk with non-causal attention scores (full s x s); "
    "model = forward + backward; hardware = model + recompute (incl. FlashAttention's backward QK^T)";

// GEMM FLOPs for one whole sequence on one unsplit model, in the convention above.
struct sequence_flops {
    double forward = 0;  // forward GEMMs
    double backward = 0;  // 2 × forward (input and weight gradients)
    double recompute = 0;  // run again: full or selective recompute, Flash's backward QKᵀ
    double model() const { return forward + backward; }
    double hardware() const { return model() + recompute; }
};
sequence_flops flops_per_sequence(const scenario& s);

}  // namespace tslab
