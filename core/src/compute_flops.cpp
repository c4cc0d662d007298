// GEMM shapes of one layer on one rank, and the memory-bound bytes around them. With the GPT
// block under full recompute the GEMM count reproduces Narayanan et al. (arXiv 2104.04473) eq. 3,
// 96 B s l h² (1 + s/(6h) + V/(16 l h)), exactly: 24h² + 4sh per token and layer, forward.
#include "tslab/compute.hpp"

#include <algorithm>

#include "tslab/activation.hpp"
#include "tslab/context.hpp"
#include "tslab/params.hpp"

namespace tslab {

namespace {

using D = double;

struct flop_dims {
    D b, sq, skv, n, h, t, ep, etp, e;  // e: bytes of an element in memory-bound kernels
    D kernel_keys;  // keys per FlashAttention call (context.hpp)
    bool flash, sp, dropout;
};

flop_dims flop_dims_of(const scenario& s) {
    flop_dims d;
    d.b = static_cast<D>(s.training.micro_batch);
    d.sq = static_cast<D>(s.training.seq_len) / static_cast<D>(s.parallel.cp);  // local queries
    d.skv = static_cast<D>(s.training.seq_len);  // keys seen (ring/Ulysses)
    d.n = d.b * d.sq;
    d.h = static_cast<D>(s.model.hidden);
    d.t = static_cast<D>(s.parallel.tp);
    d.ep = static_cast<D>(s.parallel.ep);
    d.etp = static_cast<D>(s.parallel.etp);
    // Elementwise kernels run in 16-bit even when GEMM inputs or cached activations are FP8.
    d.e = s.training.precision.activations == dtype::fp32 ? 4.0 : 2.0;
    d.flash = s.training.flash_attention;
    d.kernel_keys = d.flash ? attention_kernel_keys(s) : 0;
    d.sp = s.parallel.sp && s.parallel.tp > 1;
    d.dropout = s.model.dropout;
    return d;
}

gemm_call mk(const char* name, D m, D k, D n, D batch = 1, bool fp8 = true) {
    gemm_call g;
    g.name = name;
    g.m = m, g.k = k, g.n = n, g.batch = batch, g.fp8 = fp8;
    return g;
}

// QKᵀ and AV over heads_r local heads; the score matrix is sq × skv per head.
void add_core(std::vector<gemm_call>& out, const flop_dims& d, D heads_r, D qk_dim, D v_dim) {
    gemm_call qk = mk("attn.core.qk", d.sq, qk_dim, d.skv, heads_r * d.b, false);
    gemm_call av = mk("attn.core.av", d.sq, d.skv, v_dim, heads_r * d.b, false);
    for (gemm_call* g : {&qk, &av}) {
        g->core = true;
        g->executed = d.flash ? 0.5 : 1.0;  // causal: Flash skips the masked upper triangle
        g->kernel_keys = d.kernel_keys;  // Flash: one fused kernel at its own rate (gemm_rate.hpp)
        out.push_back(*g);
    }
}

// Softmax (+ attention dropout) over the score matrix: read and write it (Megatron's fused
// scale-mask-softmax), plus a 1-byte dropout mask. Zero under Flash (scores stay on chip).
D core_bytes(const flop_dims& d, D heads_r) {
    if (d.flash) return 0;
    const D elems = heads_r * d.b * d.sq * d.skv;
    return elems * 2 * d.e + (d.dropout ? elems * (2 * d.e + 1) : 0);
}

D attention(std::vector<gemm_call>& out, const model_spec& m, const flop_dims& d, D& core_mem) {
    const D a_r = static_cast<D>(m.heads) / d.t;
    if (m.attention == attention_kind::mla) {
        const auto& x = m.mla;
        const D qk = static_cast<D>(x.qk_nope_head_dim + x.qk_rope_head_dim), v = static_cast<D>(x.v_head_dim);
        const D ql = static_cast<D>(x.q_lora_rank), kvl = static_cast<D>(x.kv_lora_rank);
        if (x.q_lora_rank > 0) {
            out.push_back(mk("attn.q_down", d.n, d.h, ql));  // replicated over TP
            out.push_back(mk("attn.q_up", d.n, ql, a_r * qk));
            out.back().mla_up = true;
        } else {
            out.push_back(mk("attn.q", d.n, d.h, a_r * qk));
        }
        out.push_back(mk("attn.kv_down", d.n, d.h, kvl + static_cast<D>(x.qk_rope_head_dim)));
        out.push_back(mk("attn.kv_up", d.n, kvl, a_r * (static_cast<D>(x.qk_nope_head_dim) + v)));
        out.back().mla_up = true;
        add_core(out, d, a_r, qk, v);
        out.push_back(mk("attn.out", d.n, a_r * v, d.h));
        core_mem = core_bytes(d, a_r);
        return d.n * (ql + kvl) * 2 * d.e;  // q/kv LoRA norms
    }
    const D hd = static_cast<D>(m.head_dim);
    const D kv_r = std::max(static_cast<D>(m.kv_heads) / d.t, 1.0);  // KV heads replicate when tp > kv
    out.push_back(mk("attn.qkv", d.n, d.h, (a_r + 2 * kv_r) * hd));
    add_core(out, d, a_r, hd, hd);
    out.push_back(mk("attn.out", d.n, a_r * hd, d.h));
    core_mem = core_bytes(d, a_r);
    return 0;
}

// MLP of width f on `tokens` tokens, split `split` ways; returns its activation-function bytes.
D mlp(std::vector<gemm_call>& out, const model_spec& m, const char* up, const char* down, D tokens, D f, D split, D batch, D e) {
    const bool glu = m.ffn == ffn_kind::swiglu;
    out.push_back(mk(up, tokens, static_cast<D>(m.hidden), (glu ? 2 : 1) * f / split, batch));
    out.push_back(mk(down, tokens, f / split, static_cast<D>(m.hidden), batch));
    return (glu ? 3 : 2) * tokens * batch * f / split * e;  // GeLU: read + write; SwiGLU: 2 reads + write
}

// Routed experts: n·top_k token-expert pairs per TP group spread evenly over ep ranks' E/ep local
// experts (the mean; the busiest rank is expert.hpp's business), tokens split tp/etp ways.
D moe(std::vector<gemm_call>& out, const model_spec& m, const flop_dims& d) {
    const auto& x = m.moe;
    const D E = static_cast<D>(x.experts), k = static_cast<D>(x.top_k), fe = static_cast<D>(x.expert_ffn_hidden);
    out.push_back(mk("moe.router", d.n, d.h, E, 1, false));  // gating stays in 16-bit (DeepSeek-V3 §3.3)
    const D local = E / d.ep;
    const D per_expert = d.n * k * d.ep / E / (d.t / d.etp);
    D bytes = mlp(out, m, "moe.experts.up", "moe.experts.down", per_expert, fe, d.etp, local, d.e);
    bytes += 2 * 2 * per_expert * local * d.h * d.e;  // permute before, unpermute after
    if (x.shared_experts > 0) bytes += mlp(out, m, "moe.shared.up", "moe.shared.down", d.n, fe * static_cast<D>(x.shared_experts), d.t, 1, d.e);
    return bytes;
}

}  // namespace

layer_work layer_forward_work(const scenario& s, bool moe_layer) {
    const flop_dims d = flop_dims_of(s);
    const model_spec& m = s.model;
    layer_work w;
    w.gemms.reserve(16);  // every layer kind's GEMMs in one allocation
    D core_mem = 0;
    D bytes = attention(w.gemms, m, d, core_mem);
    if (moe_layer && m.is_moe())
        bytes += moe(w.gemms, m, d);
    else
        bytes += mlp(w.gemms, m, "mlp.up", "mlp.down", d.n, static_cast<D>(m.ffn_hidden), d.t, 1, d.e);
    // Replicated over TP unless SP splits them: two norms (read + write) and two residual adds
    // (read two, write one), each with a 1-byte dropout mask when the model uses dropout.
    const D n_r = d.sp ? d.n / d.t : d.n;
    bytes += 2 * 2 * n_r * d.h * d.e + 2 * (3 * n_r * d.h * d.e + (d.dropout ? n_r * d.h : 0));
    for (const auto& g : w.gemms) {
        w.gemm_flops += g.flops() * g.executed;
        w.model_flops += g.flops();
        if (g.core) w.core_flops += g.flops() * g.executed;
        if (g.mla_up) w.mla_up_flops += g.flops();
    }
    w.core_memory_bytes = core_mem;
    w.memory_bytes = bytes + core_mem;
    return w;
}

gemm_call head_gemm(const scenario& s) {
    const flop_dims d = flop_dims_of(s);
    return mk("head", d.n, d.h, static_cast<D>(s.model.vocab) / d.t, 1, false);  // kept in 16-bit
}

gemm_call mtp_projection_gemm(const scenario& s) {
    const flop_dims d = flop_dims_of(s);
    return mk("mtp.proj", d.n, 2 * d.h, d.h / d.t);  // column-parallel, as Megatron-Core's eh_proj
}

bool mtp_block_is_moe(const model_spec& m) { return m.is_moe() && m.layers > m.moe.dense_layers; }

sequence_flops flops_per_sequence(const scenario& s) {
    scenario one = s;
    one.parallel.tp = one.parallel.cp = one.parallel.ep = one.parallel.etp = 1;
    one.parallel.sp = false;
    one.training.micro_batch = 1;
    const std::int64_t moe_layers = moe_layer_count(one.model);
    sequence_flops f;
    const bool flash = one.training.flash_attention;
    for (int kind = 0; kind < 2; ++kind) {
        const D count = static_cast<D>(kind ? moe_layers : one.model.layers - moe_layers);
        if (count == 0) continue;
        const layer_work w = layer_forward_work(one, kind == 1);
        const D core = w.model_flops - (w.gemm_flops - w.core_flops);  // QKᵀ + AV over the full s×s
        f.forward += count * w.model_flops;
        if (one.training.recompute == recompute_kind::full) f.recompute += count * w.model_flops;
        // Selective recompute, and op-level without Flash, redo the attention core (core_recomputed,
        // activation.hpp); under Flash that already happens inside the backward kernel, which
        // recomputes QKᵀ (5 core GEMMs against 4; Dao, arXiv 2307.08691 section 3.1.2), half the
        // core's forward (Korthikanti et al. arXiv 2205.05198 section 5).
        if (flash)
            f.recompute += count * 0.5 * core;
        else if (core_recomputed(one))
            f.recompute += count * core;
        if (mla_up_recomputed(one)) f.recompute += count * w.mla_up_flops;
    }
    f.forward += head_gemm(one).flops();  // the head is never recomputed (its input is the last checkpoint)
    // MTP modules: their block, projection and a second pass of the shared head per depth.
    const D depth = static_cast<D>(one.training.mtp_depth);
    if (depth > 0) {
        const layer_work w = layer_forward_work(one, mtp_block_is_moe(one.model));
        const D block = w.model_flops;
        f.forward += depth * (block + mtp_projection_gemm(one).flops() + head_gemm(one).flops());
        if (one.training.recompute == recompute_kind::full) f.recompute += depth * block;
        if (mla_up_recomputed(one)) f.recompute += depth * w.mla_up_flops;
    }
    f.backward = 2 * f.forward;
    return f;
}

}  // namespace tslab
