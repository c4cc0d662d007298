// Per-layer activation bytes. With the GPT block (MHA, GeLU MLP of 4h, dropout, 16-bit
// activations) this reproduces Korthikanti et al. Table 2 exactly: none sbh(34 + 5as/h),
// TP sbh(10 + 24/t + 5as/(ht)), TP+SP sbh(34/t + 5as/(ht)), selective sbh(10 + 24/t) or
// 34sbh/t with SP, full recompute 2sbh.
#include "tslab/activation.hpp"

namespace tslab {

namespace {

struct activation_dims {
    double s, b, h, t, e, tokens;
};

activation_dims activation_dims_of(const scenario& s) {
    activation_dims d;
    d.s = static_cast<double>(s.training.seq_len) / static_cast<double>(s.parallel.cp);
    d.b = static_cast<double>(s.training.micro_batch);
    d.h = static_cast<double>(s.model.hidden);
    d.t = static_cast<double>(s.parallel.tp);
    d.e = static_cast<double>(dtype_bytes(s.training.precision.activations));
    d.tokens = d.s * d.b;
    return d;
}

// Q, K, V and the output-projection input, per token, in elements (split over TP).
double attention_split_elems(const model_spec& m) {
    const double a = static_cast<double>(m.heads);
    if (m.attention == attention_kind::mla) {
        const double qk = static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
        const double v = static_cast<double>(m.mla.v_head_dim);
        return a * (2 * qk + 2 * v);
    }
    const double hd = static_cast<double>(m.head_dim), kv = static_cast<double>(m.kv_heads);
    return a * hd * 2 + kv * hd * 2;  // Q and attention output; K and V
}

// The per-head tensors MLA's up-projections write, per token in elements (split over TP): K and V
// from the KV latent, Q from the query latent where there is one (mla_up_recomputed).
double mla_up_output_elems(const model_spec& m) {
    const double a = static_cast<double>(m.heads);
    const double qk = static_cast<double>(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    return a * ((m.mla.q_lora_rank > 0 ? qk : 0) + qk + static_cast<double>(m.mla.v_head_dim));
}

// The attention output (the output projection's input), per token in elements, split over TP.
double attention_output_elems(const model_spec& m) {
    const double a = static_cast<double>(m.heads);
    return m.attention == attention_kind::mla ? a * static_cast<double>(m.mla.v_head_dim) : a * static_cast<double>(m.head_dim);
}

// MLP tensors split over TP, per token in elements: GeLU keeps its input and output (2f),
// SwiGLU keeps gate+up outputs and their product (3f).
double mlp_split_elems(const model_spec& m, double f) { return (m.ffn == ffn_kind::swiglu ? 3.0 : 2.0) * f; }

// Routed experts per token: top_k copies of the dispatched input and of the expert MLP tensors.
double moe_elems(const scenario& s, double& replicated_extra) {
    const auto& m = s.model;
    const double k = static_cast<double>(m.moe.top_k), fe = static_cast<double>(m.moe.expert_ffn_hidden);
    const double etp = static_cast<double>(s.parallel.etp);
    replicated_extra =
        k * static_cast<double>(m.hidden) + 2.0 * static_cast<double>(m.moe.experts);  // dispatched copies; router probs (fp32 as 2 elems)
    const double shared = static_cast<double>(m.moe.shared_experts) * fe;
    return k * mlp_split_elems(m, fe) / etp * static_cast<double>(s.parallel.tp) + mlp_split_elems(m, shared);
}

// Op-level selective recompute (torchtitan, selective_ac_option "op"): the outputs of the matmuls and
// of the attention kernel stay, everything between them (norms, activation functions, residual adds,
// rotary) is recomputed from them in the backward. torchtitan's policy also drops every second
// matmul output; this keeps them all (the upper bound of its memory). Per token: the layer input and
// the two row-parallel outputs (attention-out, MLP-down: 3h, split by SP); Q, K, V and the attention
// output with its fp32 log-sum-exp (split by TP); the MLP's first matmul output (2f SwiGLU gate+up,
// f GeLU; the activation function's output is recomputed); MoE: top_k copies of the expert outputs
// and the router logits; dropout masks (1 byte) where the model has dropout.
layer_activation op_level_bytes(const scenario& s, bool moe_layer, const activation_dims& d, bool sp, layer_activation& out) {
    const auto& m = s.model;
    const bool glu = m.ffn == ffn_kind::swiglu;
    double rep = 3 * d.e * d.h + (m.dropout ? 2 * d.h : 0);
    if (m.attention == attention_kind::mla) rep += d.e * static_cast<double>(m.mla.q_lora_rank + m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
    // Flash keeps its output and an fp32 LSE per head; the unfused core keeps neither: its output
    // comes from a bmm that runs again with the rest of the core (core_recomputed).
    double split = core_recomputed(s) ? (attention_split_elems(m) - attention_output_elems(m)) * d.e
                                      : attention_split_elems(m) * d.e + 4.0 * static_cast<double>(m.heads);
    if (moe_layer && m.is_moe()) {
        const double k = static_cast<double>(m.moe.top_k), fe = static_cast<double>(m.moe.expert_ffn_hidden);
        const double shared = static_cast<double>(m.moe.shared_experts) * fe;
        split += ((glu ? 2.0 : 1.0) * (k * fe / static_cast<double>(s.parallel.etp) * d.t + shared) + k * d.h) * d.e;
        rep += 2.0 * static_cast<double>(m.moe.experts) * d.e;  // router logits (fp32 as 2 elements)
    } else {
        split += (glu ? 2.0 : 1.0) * static_cast<double>(m.ffn_hidden) * d.e;
    }
    out.replicated = rep * d.tokens / (sp ? d.t : 1.0);
    out.split = split * d.tokens / d.t;
    out.quadratic = 0;  // the scores are never kept: inside Flash, or recomputed with the unfused core
    out.total = out.replicated + out.split;
    return out;
}

const char* formula_for(const scenario& s) {
    const bool sp = s.parallel.sp && s.parallel.tp > 1;
    switch (s.training.recompute) {
        case recompute_kind::full: return sp ? "full recompute: 2sbh/t (layer input only)" : "full recompute: 2sbh (layer input only)";
        case recompute_kind::op:
            if (core_recomputed(s))
                return sp ? "op-level, unfused attention: 3 sbh outputs /t (input, attn-out, MLP-down) + Q, K, V and the first MLP matmul /t; the "
                            "core recomputed"
                          : "op-level, unfused attention: 3 sbh outputs (input, attn-out, MLP-down) + Q, K, V and the first MLP matmul /t; the core "
                            "recomputed";
            return sp ? "op-level: 3 sbh outputs /t (input, attn-out, MLP-down) + Q, K, V, attention output, LSE and the first MLP matmul /t"
                      : "op-level: 3 sbh outputs (input, attn-out, MLP-down) + Q, K, V, attention output, LSE and the first MLP matmul /t";
        case recompute_kind::selective:
            if (s.model.attention == attention_kind::mla)
                return sp ? "selective, MLA: 34sbh/t less the per-head Q, K, V (rebuilt from the kept latents)"
                          : "selective, MLA: sbh(10 + 24/t) less the per-head Q, K, V (rebuilt from the kept latents)";
            return sp ? "selective: 34sbh/t" : "selective: sbh(10 + 24/t)";
        case recompute_kind::none: break;
    }
    if (s.training.flash_attention) return sp ? "Flash (no s² term): 34sbh/t" : "Flash (no s² term): sbh(10 + 24/t)";
    return sp ? "sbh(34/t + 5as/(ht))" : "sbh(10 + 24/t + 5as/(ht))";
}

}  // namespace

bool mla_up_recomputed(const scenario& s) { return s.model.attention == attention_kind::mla && s.training.recompute == recompute_kind::selective; }

bool core_recomputed(const scenario& s) {
    const recompute_kind r = s.training.recompute;
    return !s.training.flash_attention && (r == recompute_kind::selective || r == recompute_kind::op);
}

layer_activation layer_activation_bytes(const scenario& s, bool moe_layer) {
    const auto& m = s.model;
    const activation_dims d = activation_dims_of(s);
    const bool sp = s.parallel.sp && s.parallel.tp > 1;
    layer_activation out;
    out.formula = formula_for(s);
    if (s.training.recompute == recompute_kind::full) {
        out.replicated = d.e * d.tokens * d.h / (sp ? d.t : 1.0);
        out.total = out.replicated;
        return out;
    }
    if (s.training.recompute == recompute_kind::op) return op_level_bytes(s, moe_layer, d, sp, out);
    // Two norm inputs, QKV input, MLP input (4 e·sbh) and two dropout masks (1 byte each).
    double rep = 4 * d.e * d.h + (m.dropout ? 2 * d.h : 0);
    if (m.attention == attention_kind::mla) rep += d.e * static_cast<double>(m.mla.q_lora_rank + m.mla.kv_lora_rank + m.mla.qk_rope_head_dim);
    double split = (attention_split_elems(m) - (mla_up_recomputed(s) ? mla_up_output_elems(m) : 0)) * d.e;
    if (moe_layer) {
        double extra = 0;
        split += moe_elems(s, extra) * d.e;
        rep += extra * d.e;
    } else {
        split += mlp_split_elems(m, static_cast<double>(m.ffn_hidden)) * d.e;
    }
    out.replicated = rep * d.tokens / (sp ? d.t : 1.0);
    out.split = split * d.tokens / d.t;
    const double a = static_cast<double>(m.heads), full_s = static_cast<double>(s.training.seq_len);
    if (s.training.flash_attention) {
        out.quadratic = 0;
        out.split += 4.0 * a * d.tokens / d.t;  // fp32 log-sum-exp per head and query
    } else if (s.training.recompute == recompute_kind::none) {
        // softmax output (e), dropout mask (1 byte) and dropout output (e) per score
        const double per_score = d.e + (m.dropout ? 1.0 + d.e : 0.0);
        out.quadratic = per_score * a * d.s * full_s * d.b / d.t;
    }
    out.total = out.replicated + out.split + out.quadratic;
    return out;
}

double first_stage_other_bytes(const scenario& s) {
    const activation_dims d = activation_dims_of(s);
    const bool sp = s.parallel.sp && s.parallel.tp > 1;
    // embedding output kept for the first layer's backward, plus its dropout mask
    return d.tokens * d.h * (d.e + (s.model.dropout ? 1.0 : 0.0)) / (sp ? d.t : 1.0);
}

double last_stage_other_bytes(const scenario& s) {
    const activation_dims d = activation_dims_of(s);
    // fp32 logits for the cross-entropy, vocab-parallel over TP (Korthikanti section 4.3)
    return 4.0 * d.tokens * static_cast<double>(s.model.vocab) / d.t;
}

}  // namespace tslab
