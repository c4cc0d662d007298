// GEMM rates: the standalone curve of each GPU and dtype, the share GEMMs keep inside a training
// step, and the time of one GEMM call; a calibration profile's measured curves take precedence.
#pragma once

#include <string>

#include "tslab/scenario.hpp"

namespace tslab {

// One GEMM call on one rank in the forward pass of one micro-batch: `batch` independent
// m×k·k×n products (attention heads, local experts) issued as one batched/grouped call.
struct gemm_call {
    std::string name;
    double m = 0, n = 0, k = 0, batch = 1;
    bool core = false;  // attention core (QKᵀ or AV): the FlashAttention kernel when Flash is on
    bool fp8 = false;  // runs at the FP8 rate when the recipe's gemm dtype is fp8 (L8)
    double executed = 1;  // fraction actually computed: 0.5 for causal blocks skipped by Flash
    double kernel_keys = 0;  // > 0: a FlashAttention kernel walking this many keys per call (context.hpp)
    bool mla_up = false;  // an MLA up-projection (latent → per-head Q or K/V): selective recompute redoes it
    double flops() const { return 2.0 * m * n * k * batch; }
};

// The dtype a call runs in under the recipe's gemm dtype: FP8-eligible calls at fp8, the others
// (router, attention core, head) at bf16 when the recipe is fp8.
dtype call_dtype(dtype gemm_dtype, const gemm_call& c);

// The knee of a curve: half_flops, or call_overhead_s × peak × max when half_flops is 0.
double half_flops_of(const gemm_efficiency_spec& e, const gemm_rates& r, double peak_flops);

// eff(x) = max · x / (x + half) of the dtype's datasheet peak, standalone (no in_step share).
double gemm_efficiency(const gemm_efficiency_spec& e, double half_flops, double flops);

// The FlashAttention kernel's share of the 16-bit peak at `keys` keys per call.
double attention_efficiency(const attention_rate_spec& a, double keys);

// Seconds for one call inside a step: executed FLOPs / (standalone rate × in_step), the standalone
// rate being, for a FlashAttention call, peak × attention_efficiency(keys); for a GEMM, the
// calibrated curve of its dtype where one was measured, else peak × eff(x) of the GPU's curve.
double gemm_time_s(const gpu_spec& g, dtype gemm_dtype, const gemm_call& c);

// Which rate model applies, per dtype the recipe uses ("bf16: preset curve, max 0.803 ...").
std::string gemm_model_source(const gpu_spec& g, dtype gemm_dtype);

}  // namespace tslab
