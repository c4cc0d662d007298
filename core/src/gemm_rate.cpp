// GEMM time from per-GPU, per-dtype curves. Three parts, each with its source:
//
// 1. The ceiling `max` of each preset GPU and dtype is a measured one: the Maximum Achievable Matmul
//    FLOPS table of S. Bekman's "Machine Learning Engineering" (github.com/stas00/ml-engineering,
//    compute/accelerator/README.md, BF16 and FP8 tables: the best of a brute-force shape search,
//    mean of 100 runs); presets.cpp quotes each row.
// 2. The knee comes from a fixed time per call: t(x) = overhead + x / (peak · max), so
//    half_flops = overhead × peak × max. overhead = 6.9 µs is the least-squares fit (in log time) of
//    72 BF16 entries of OpenXLA's measured H100 matmul table (sm_90, b×m×n×k from 1×256³ to
//    4×4096³; tests/data/gemm/xla_sm90_bf16.csv cites the file and test_gemm_rate.cpp refits it);
//    the same per-call time is assumed on every generation (XLA's sm_100 table gives 256³ BF16 in
//    about the same time as sm_90).
// 3. Inside a training step GEMMs keep a share in_step of that standalone rate (clocks under an
//    8-GPU node's power draw, operands that are not L2-resident, stream and launch gaps): one number
//    for every GPU, fitted together with cluster.gpu_speed_cv on the training set (fit_step_model,
//    validation_fit.cpp; tests/validation/README.md): in_step = 0.815, gpu_speed_cv = 0.034 (the
//    bound the fit may take, max_gpu_speed_cv); worst row 7.4%, mean 3.6%.
//
// 4. FlashAttention kernels (the attention core under Flash) have their own rate against the
//    16-bit peak, rising with the keys one call walks: eff(L) = max · L / (L + half_keys). Fitted to
//    FlashAttention-3's forward, head dim 128, on H100 SXM (pytorch/benchmark PR #2391, commit
//    ff65cb6: 430.3, 517.1, 565.5, 590.2, 614.2, 620.7 TFLOP/s at 512 … 16384 keys, B·S = 16k):
//    max 0.635 of 989.5, half_keys 230 (minimax: within 0.8% of every point). A100: FlashAttention-2 reaches
//    "up to 73% of the theoretical maximum" (Dao, arXiv 2307.08691, abstract), max 0.72, same knee.
//    Ring CP shortens L to seq/ring per call, which is where its kernel time goes (context.hpp).
//
// FP8 therefore speeds a GEMM up by (peak_fp8 · max_fp8) / (peak_bf16 · max_bf16) at large sizes and
// by less at small ones, where the per-call time weighs more: no flat factor.
#include "tslab/gemm_rate.hpp"

#include <fmt/format.h>

namespace tslab {

dtype call_dtype(dtype gemm_dtype, const gemm_call& c) { return c.fp8 ? gemm_dtype : (gemm_dtype == dtype::fp8 ? dtype::bf16 : gemm_dtype); }

double half_flops_of(const gemm_efficiency_spec& e, const gemm_rates& r, double peak_flops) {
    return e.half_flops > 0 ? e.half_flops : r.call_overhead_s * peak_flops * e.max;
}

double gemm_efficiency(const gemm_efficiency_spec& e, double half_flops, double flops) {
    if (flops <= 0) return e.max;
    return e.max * flops / (flops + half_flops);
}

double attention_efficiency(const attention_rate_spec& a, double keys) { return keys > 0 ? a.max * keys / (keys + a.half_keys) : a.max; }

double gemm_time_s(const gpu_spec& g, dtype gemm_dtype, const gemm_call& c) {
    const dtype t = call_dtype(gemm_dtype, c);
    const double x = c.flops(), share = g.gemm.in_step;
    if (c.kernel_keys > 0) return x * c.executed / (g.peak_flops(t) * share * attention_efficiency(g.gemm.attention, c.kernel_keys));
    if (const gemm_curve* m = g.measured_curve(t)) return x * c.executed / (m->flops_per_s(x) * share);
    const double peak = g.peak_flops(t);
    const gemm_efficiency_spec& e = g.gemm_curve_of(t);
    return x * c.executed / (peak * share * gemm_efficiency(e, half_flops_of(e, g.gemm, peak), x));
}

namespace {

std::string rate_model(const gpu_spec& g, dtype t) {
    if (const gemm_curve* m = g.measured_curve(t))
        return fmt::format("{}: calibrated curve, {:.4g} TFLOP/s max, x_half {:.4g} FLOPs, in-step share {:.3g}", to_string(t),
                           m->flops_per_s_max / 1e12, m->x_half_flops, g.gemm.in_step);
    const gemm_efficiency_spec& e = g.gemm_curve_of(t);
    const double peak = g.peak_flops(t);
    return fmt::format("{}: {} max {:.4g} of {:.4g} TFLOP/s, x_half {:.4g} FLOPs, in-step share {:.3g}", to_string(t),
                       e.fitted ? "preset curve" : "default curve", e.max, peak / 1e12, half_flops_of(e, g.gemm, peak), g.gemm.in_step);
}

}  // namespace

std::string gemm_model_source(const gpu_spec& g, dtype gemm_dtype) {
    if (gemm_dtype != dtype::fp8) return rate_model(g, gemm_dtype);
    return rate_model(g, dtype::fp8) + "; " + rate_model(g, dtype::bf16) + " (gating, attention core, head)";
}

}  // namespace tslab
