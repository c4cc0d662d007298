// The dtype recipe table and FP8 block-scaling overheads. Granularity follows DeepSeek-V3 (arXiv
// 2412.19437 section 3.3.1): activations scaled per 1×128 tile (per token, 128 channels), weights per
// 128×128 block, fp32 scales, accumulation promoted to fp32 every 128 elements (section 3.3.2).
#include "tslab/numerics.hpp"

#include <cmath>

#include <fmt/format.h>

#include "tslab/compute.hpp"
#include "tslab/params.hpp"

namespace tslab {

namespace {

std::string name_of(dtype t) { return t == dtype::fp8 ? "fp8 e4m3" : to_string(t); }

std::vector<recipe_row> rows_of(const precision_spec& p) {
    const bool fp8 = p.gemm == dtype::fp8;
    const dtype update = p.master != dtype::none ? p.master : p.params;
    return {
        {"params (storage)", name_of(p.params), "weights as the forward pass reads them"},
        {"grads (storage)", name_of(p.grads), "accumulated over micro-batches"},
        {"grads (DP reduce)", name_of(p.reduce_dtype()), "the dtype the reduce-scatter / all-reduce moves"},
        {"master params", name_of(p.master), p.master == dtype::none ? "the params are the master copy" : "the copy the optimizer updates"},
        {"optimizer states", name_of(p.optimizer), "moments (Adam: m and v)"},
        {"activations (cached)", name_of(p.activations), "tensors kept for backward"},
        {"GEMM input", name_of(p.gemm), fp8 ? "1×128 activation tiles and 128×128 weight blocks, fp32 scales" : "tensor-core input"},
        {"GEMM accumulate", "fp32", fp8 ? "tensor-core partial sums promoted to fp32 every 128 elements" : "tensor-core fp32 accumulate"},
        {"weight update", name_of(update), "optimizer arithmetic and the updated copy"},
    };
}

}  // namespace

double block_scale_bytes(double rows, double cols, double block_rows, double block_cols) {
    return 4.0 * std::ceil(rows / block_rows) * std::ceil(cols / block_cols);
}

const scaling_desc& active_scaling(const precision_spec& p) {
    for (const auto& d : scaling_rows)
        if (p.gemm == dtype::fp8 ? d.fp8 && d.promote_every > 0 : !d.fp8) return d;
    return scaling_rows.front();
}

fp8_cast fp8_cast_of(const std::vector<gemm_call>& gemms, const scaling_desc& d) {
    fp8_cast c;
    if (!d.fp8) return c;
    for (const auto& g : gemms) {
        if (!g.fp8) continue;
        c.elems += g.m * g.batch * g.k;
        c.scales += g.batch * (d.act_rows <= 0 || d.act_cols <= 0 ? 1 : std::ceil(g.m / d.act_rows) * std::ceil(g.k / d.act_cols));
    }
    const double amax = d.act_rows <= 0 ? 2 : 0;  // per-tensor current scaling: one more read for the amax
    c.bytes = c.elems * (2 + 1 + amax) + c.scales * d.scale_bytes;
    return c;
}

bool fp8_casts_active(const scenario& s) { return s.training.precision.gemm == dtype::fp8 && s.cluster.gpu.flops_fp8 > 0; }

numerics_report describe_numerics(const scenario& s) {
    const precision_spec& p = s.training.precision;
    numerics_report r;
    r.recipe = p.recipe;
    r.rows = rows_of(p);
    r.fp8_speedup = fp8_speedup(s);
    if (p.gemm != dtype::fp8) {
        r.set_notes(msg("numerics.note.no_fp8", {{"gemm", to_string(p.gemm)}}));
        return r;
    }
    for (const auto& t : tensor_list(s.model))
        if (t.matrix() && t.site == tensor_site::layer)
            r.weight_scale_bytes += block_scale_bytes(static_cast<double>(t.rows), static_cast<double>(t.cols), 128, 128) *
                static_cast<double>(t.copies) *
                static_cast<double>(t.layers == layer_kind::moe         ? moe_layer_count(s.model)
                                        : t.layers == layer_kind::dense ? s.model.layers - moe_layer_count(s.model)
                                                                        : s.model.layers);
    for (const auto& g : layer_forward_work(s, s.model.is_moe()).gemms) {
        if (!g.fp8) continue;
        r.activation_scale_bytes += block_scale_bytes(g.m * g.batch, g.k, 1, 128);
        r.activation_fp8_bytes += g.m * g.batch * g.k;
    }
    if (r.fp8_speedup == 1.0)
        r.set_notes(msg("numerics.note.no_fp8_cores", {{"gpu", s.cluster.gpu.name}}));
    else
        r.set_notes(msg("numerics.note.fp8",
                        {{"speedup", fmt::format("{:.2f}", r.fp8_speedup)},
                         {"scales", fmt::format("{:.2f}", 100.0 * r.activation_scale_bytes / r.activation_fp8_bytes)}}));
    return r;
}

}  // namespace tslab
