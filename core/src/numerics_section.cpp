// The numerics report section: scaling recipes compared on the scenario's GEMMs, and Adam vs Muon.
#include "tslab/numerics_section.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tslab/gemm_rate.hpp"
#include "tslab/numerics.hpp"
#include "tslab/params.hpp"

namespace tslab {

double block_scale_count(double rows, double cols, double br, double bc) {
    if (br <= 0 || bc <= 0) return 1;
    return std::ceil(rows / br) * std::ceil(cols / bc);
}

namespace {

struct stage_gemms {
    double act_elems = 0, act_scales = 0;  // one layer's FP8-eligible A operands (the larger layer kind)
    double cast_bytes = 0;  // their cast kernels' bytes (numerics.hpp fp8_cast_of)
    double eligible_bf16_s = 0;  // per step, busiest stage
};

// The stage's FP8-eligible GEMMs: forward at bf16 on the 16-bit curve, × 3 for the two backward
// GEMMs of equal FLOPs, × m micro-batches (compute_time.cpp's pass structure).
stage_gemms stage_gemms_of(const scenario& s, const compute_estimate& c, const scaling_desc& d) {
    stage_gemms g;
    const double m = static_cast<double>(c.microbatches);
    for (const auto& [is_moe, count] : {std::pair{false, c.stage_layers - c.stage_moe_layers}, std::pair{true, c.stage_moe_layers}}) {
        if (count <= 0) continue;
        const auto gemms = layer_forward_work(s, is_moe).gemms;
        for (const auto& call : gemms)
            if (call.fp8) g.eligible_bf16_s += 3 * m * static_cast<double>(count) * gemm_time_s(s.cluster.gpu, dtype::bf16, call);
        const fp8_cast cast = fp8_cast_of(gemms, d);
        if (cast.elems > g.act_elems) g.act_elems = cast.elems, g.act_scales = cast.scales, g.cast_bytes = cast.bytes;
    }
    return g;
}

double weight_scales(const scenario& s, const scaling_desc& d) {
    const double moe = static_cast<double>(moe_layer_count(s.model)), dense = static_cast<double>(s.model.layers) - moe;
    double n = 0;
    for (const auto& t : tensor_list(s.model))
        if (t.matrix() && t.site == tensor_site::layer)
            n += block_scale_count(static_cast<double>(t.rows), static_cast<double>(t.cols), d.weight_rows, d.weight_cols) *
                static_cast<double>(t.copies) *
                (t.layers == layer_kind::moe         ? moe
                     : t.layers == layer_kind::dense ? dense
                                                     : moe + dense);
    return n * d.scale_bytes;
}

const char* dtype_label(dtype t) { return t == dtype::fp8 ? "fp8 e4m3" : to_string(t); }

scaling_row row_of(const scenario& s, const compute_estimate& c, const scaling_desc& d, double speedup) {
    const auto& p = s.training.precision;
    scaling_row r;
    r.name = d.name, r.label = d.label, r.source = d.source, r.promote_every = d.promote_every;
    r.accumulate_msg = msg(d.accumulate);
    r.accumulate = english(r.accumulate_msg);
    r.current = &active_scaling(p) == &d;  // numerics.hpp: the row the step's cast term uses
    r.storage = dtype_label(p.params);
    r.gemm_input = d.fp8 ? "fp8 e4m3" : "bf16";
    r.reduction = dtype_label(p.reduce_dtype());
    r.update = dtype_label(p.master != dtype::none ? p.master : p.params);
    auto refuse = [&r](message why) { r.available = false, r.unavailable = english(why), r.unavailable_msg = std::move(why); };
    if (d.fp8 && s.cluster.gpu.flops_fp8 <= 0) refuse(msg("numerics.row.no_fp8_cores"));
    if (d.needs_mx && !s.cluster.gpu.mx_scaling) refuse(msg("numerics.row.no_mx_scaling"));
    const stage_gemms g = stage_gemms_of(s, c, d);
    r.gemm_s = g.eligible_bf16_s;
    if (!d.fp8) return r;
    r.gemm_input_bytes = g.act_elems;
    r.activation_scale_bytes = g.act_scales * d.scale_bytes;
    r.input_bytes_saved = 2 * g.act_elems - (g.act_elems + r.activation_scale_bytes);
    r.cast_bytes = g.cast_bytes;  // the bytes compute_time.cpp times when this row is the scenario's
    r.cast_s = r.cast_bytes / s.cluster.gpu.hbm_bandwidth_Bps;
    r.weight_scale_bytes = weight_scales(s, d);
    if (r.available) r.gemm_s = g.eligible_bf16_s / speedup, r.gemm_saved_s = g.eligible_bf16_s - r.gemm_s;
    return r;
}

}  // namespace

numerics_section numerics_section_of(const scenario& s, const compute_estimate& c) {
    numerics_section n;
    n.recipe = s.training.precision.recipe;
    scenario f = s;
    f.training.precision.gemm = dtype::fp8;
    n.fp8_speedup = fp8_speedup(f);  // the per-dtype GEMM curves (compute.hpp), 1 without FP8 tensor cores
    for (const auto& d : scaling_rows) n.rows.push_back(row_of(s, c, d, n.fp8_speedup));
    n.eligible_gemm_bf16_s = n.rows.front().gemm_s;
    n.gemm_formula_msg = msg("numerics.gemm_formula", {{"m", fmt::format("{}", c.microbatches)}, {"speedup", fmt::format("{:.3f}", n.fp8_speedup)}});
    n.gemm_formula = english(n.gemm_formula_msg);
    n.optimizer = optimizer_compare_of(s);
    return n;
}

namespace {

void write_row(json_writer& w, const scaling_row& r) {
    w.begin_object();
    w.field("name", r.name).field("label", r.label).field("available", r.available).field("current", r.current).field("unavailable", r.unavailable);
    w.key("unavailable_msg");
    if (r.available)
        w.null_value();
    else
        write_message(w, r.unavailable_msg);
    w.field("storage", r.storage).field("gemm_input", r.gemm_input).field("accumulate", r.accumulate);
    w.key("accumulate_msg");
    write_message(w, r.accumulate_msg);
    w.field("reduction", r.reduction).field("update", r.update).field("promote_every", r.promote_every);
    w.field("gemm_input_bytes", r.gemm_input_bytes).field("activation_scale_bytes", r.activation_scale_bytes);
    w.field("input_bytes_saved", r.input_bytes_saved).field("cast_bytes", r.cast_bytes).field("cast_s", r.cast_s);
    w.field("weight_scale_bytes", r.weight_scale_bytes).field("gemm_s", r.gemm_s).field("gemm_saved_s", r.gemm_saved_s);
    w.field("source", r.source);
    w.end_object();
}

}  // namespace

void write_numerics_section(json_writer& w, const numerics_section& n) {
    const optimizer_compare& o = n.optimizer;
    w.begin_object();
    w.field("recipe", n.recipe).field("units", "bytes per layer and micro-batch on one rank unless named whole-model or per step");
    w.field("eligible_gemm_bf16_s", n.eligible_gemm_bf16_s).field("fp8_speedup", n.fp8_speedup).field("gemm_formula", n.gemm_formula);
    w.key("gemm_formula_msg");
    write_message(w, n.gemm_formula_msg);
    w.key("rows").begin_array();
    for (const auto& r : n.rows) write_row(w, r);
    w.end_array();
    w.key("optimizer").begin_object();
    w.field("params", o.params).field("matrix_params", o.matrix_params);
    w.field("adam_state_bytes", o.adam_state_bytes).field("muon_state_bytes", o.muon_state_bytes);
    w.field("group", o.group).field("bytes_per_elem", o.bytes_per_elem);
    w.field("gather_whole_bytes", o.whole_bytes).field("gather_owned_max_bytes", o.owned_max_bytes);
    w.field("gather_owned_mean_bytes", (o.dense.owned_mean_elems + o.expert.owned_mean_elems) * o.bytes_per_elem);
    // The expert part of the gathers above: Σ m·(n−1)/n over the expert-DP group (optimizer_comm.hpp).
    w.field("expert_group", o.expert_group).field("gather_expert_whole_bytes", o.expert.whole_elems * o.bytes_per_elem);
    w.field("gather_expert_owned_max_bytes", o.expert.owned_max_elems * o.bytes_per_elem);
    w.end_object();
    w.end_object();
}

}  // namespace tslab
