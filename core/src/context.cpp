// Sequence and context parallel traffic. Megatron SP: AllReduce → ReduceScatter + AllGather
// (Korthikanti et al. arXiv 2205.05198 section 4.2.2). Ulysses: All-to-All of Q,K,V before and of
// the output after attention (Jacobs et al. arXiv 2309.14509 section 3). Ring attention: cp−1 K/V
// block rotations per pass, each under the previous block's attention (Liu et al. arXiv 2310.01889);
// causal balance with 2·cp chunks (Megatron-Core context parallel). USP: Ulysses inside, Ring
// across (Fang and Zhao arXiv 2405.07719). All-gather CP: K and V gathered before attention, dK and
// dV reduce-scattered after, with 2·cp chunks for balance (Llama 3, arXiv 2407.21783 section 3.3.2).
#include "tslab/context.hpp"

#include <numeric>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {

struct shape {
    double b, s_local, e, q_dim, kv_dim;  // kv_dim: K and V together, per token, per TP rank
    std::int64_t heads_r, kv_r;
};

shape shape_of(const scenario& s) {
    const auto& m = s.model;
    const auto& q = s.parallel;
    shape x;
    x.b = static_cast<double>(s.training.micro_batch);
    x.s_local = static_cast<double>(s.training.seq_len / q.cp);
    x.e = static_cast<double>(dtype_bytes(s.training.precision.activations == dtype::fp8 ? dtype::bf16 : s.training.precision.activations));
    x.heads_r = m.heads / q.tp;
    x.kv_r = std::max<std::int64_t>(1, m.kv_heads / q.tp);
    if (m.attention == attention_kind::mla) {
        // Megatron MLA under CP exchanges per-head K (nope + rope) and V after the up-projection.
        x.kv_r = x.heads_r;
        x.q_dim = static_cast<double>(x.heads_r * (m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim));
        x.kv_dim = static_cast<double>(x.heads_r * (m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim + m.mla.v_head_dim));
    } else {
        x.q_dim = static_cast<double>(x.heads_r * m.head_dim);
        x.kv_dim = static_cast<double>(2 * x.kv_r * m.head_dim);
    }
    return x;
}

// The largest degree that divides both cp and the heads per TP rank: their greatest common divisor
// (cp itself when heads_r is 0, as every degree divides 0). A count-down from cp took up to cp − 1
// divisions per call, which the planner pays for every plan with thousands of CP ranks.
std::int64_t auto_ulysses(const scenario& s) { return std::gcd(s.parallel.cp, s.model.heads / s.parallel.tp); }

void add_sp(context_report& r, const scenario& s, const shape& x) {
    const double t = static_cast<double>(s.parallel.tp);
    const double full = x.b * x.s_local * static_cast<double>(s.model.hidden) * x.e;
    r.items.push_back({"sp allgather (before QKV and MLP-up)", "allgather", "tp", full, t, 2, 2, false, "sp",
                       "replaces the AllReduce's second half; norms and dropout run on s/t tokens"});
    r.items.push_back({"sp reducescatter (after attention-out and MLP-down)", "reducescatter", "tp", full, t, 2, 2, false, "sp",
                       "same bytes as the AllReduce it replaces"});
}

void add_ulysses(context_report& r, const shape& x, double u, double kv_scale) {
    const double tokens = x.b * x.s_local;  // before the first All-to-All, per rank
    r.items.push_back({"ulysses qkv all-to-all", "alltoall", "cp", tokens * (x.q_dim + x.kv_dim * kv_scale) * x.e, u, 1, 1, false, "ulysses",
                       "sequence-sharded → head-sharded"});
    r.items.push_back(
        {"ulysses output all-to-all", "alltoall", "cp", tokens * x.q_dim * x.e, u, 1, 1, false, "ulysses", "head-sharded → sequence-sharded"});
}

void add_ring(context_report& r, const shape& x, double ring) {
    // After Ulysses (u > 1) a rank holds u times the tokens for 1/u of the heads: same block bytes.
    const double block = x.b * x.s_local * x.kv_dim * x.e;
    r.items.push_back({"ring K/V rotation", "sendrecv", "cp", block, ring, ring - 1, 2 * (ring - 1), true, "ring",
                       "one K/V block per step under the previous block's attention; backward also returns dK/dV"});
}

void add_allgather(context_report& r, const shape& x, double cp) {
    // The gathered K/V of the whole sequence: the nccl-tests size of the call (each rank adds s/cp).
    const double full = x.b * x.s_local * cp * x.kv_dim * x.e;
    r.items.push_back({"allgather K/V before attention, forward + backward", "allgather", "cp", full, cp, 1, 1, false, "allgather",
                       "K and V of the whole sequence for the local queries; gathered again for the backward"});
    r.items.push_back({"reducescatter dK/dV after the attention backward", "reducescatter", "cp", full, cp, 0, 1, false, "allgather",
                       "each rank keeps the gradient of its own K/V chunk"});
}

}  // namespace

std::int64_t ulysses_degree_of(const scenario& s, std::int64_t ulysses_degree) {
    const auto& row = describe(s.parallel.cp_method);
    if (!row.alltoall) return 1;
    if (!row.ring) return s.parallel.cp;
    return ulysses_degree ? ulysses_degree : auto_ulysses(s);
}

bool context_rules_hold(const scenario& s, rule_violation* why, std::int64_t ulysses_degree) {
    const auto& q = s.parallel;
    if (q.cp == 1) return true;
    auto fail = [why](auto&& reason) {
        if (why) {
            message m = reason();
            *why = {"parallel.cp", english(m), std::move(m)};
        }
        return false;
    };
    const std::int64_t heads_r = s.model.heads / q.tp;
    const std::int64_t kv_r = std::max<std::int64_t>(1, s.model.kv_heads / q.tp);
    const auto& row = describe(q.cp_method);
    const std::int64_t u = ulysses_degree_of(s, ulysses_degree);
    if (row.alltoall && row.ring && (u < 1 || q.cp % u != 0))
        return fail([&] { return msg("context.usp_degree", {{"degree", fmt::format("{}", u)}, {"cp", fmt::format("{}", q.cp)}}); });
    if (u > 1 && heads_r % u != 0)
        return fail([&] {
            return msg("context.ulysses_heads",
                       {{"degree", fmt::format("{}", u)},
                        {"heads", fmt::format("{}", s.model.heads)},
                        {"tp", fmt::format("{}", q.tp)},
                        {"per_rank", fmt::format("{}", heads_r)}});
        });
    if (u > 1 && s.model.attention != attention_kind::mla && kv_r % u != 0 && u % kv_r != 0)
        return fail([&] { return msg("context.ulysses_kv_heads", {{"degree", fmt::format("{}", u)}, {"kv_heads", fmt::format("{}", kv_r)}}); });
    // A ring pass computes attention block by block and merges the partial outputs by their log-sum-exp,
    // the online softmax of FlashAttention (Dao et al., arXiv 2205.14135 section 3.1); Megatron-Core's
    // CP runs only on TransformerEngine's flash and cuDNN fused backends, never the unfused one.
    // Ulysses and all-gather CP give the kernel whole K/V, so any attention kernel serves them.
    if (row.ring && !s.training.flash_attention) return fail([&] { return msg("context.ring_needs_flash", {{"method", std::string(row.label)}}); });
    // Ring and all-gather CP balance the causal mask with 2 chunks per rank (zig-zag).
    const std::int64_t split = row.allgather ? q.cp : q.cp / u;
    if (split > 1 && s.training.seq_len % (2 * split) != 0)
        return fail([&] {
            return msg("context.causal_chunks",
                       {{"method", std::string(row.label)}, {"seq_len", fmt::format("{}", s.training.seq_len)}, {"split", fmt::format("{}", split)}});
        });
    return true;
}

void check_context_parallel(const scenario& s, std::int64_t ulysses_degree) {
    rule_violation why;
    if (!context_rules_hold(s, &why, ulysses_degree)) throw input_error(why.path, why.msg);
}

double attention_kernel_keys(const scenario& s) {
    const double seq = static_cast<double>(s.training.seq_len);
    if (s.parallel.cp == 1 || !describe(s.parallel.cp_method).ring) return seq;
    return seq * static_cast<double>(ulysses_degree_of(s)) / static_cast<double>(s.parallel.cp);
}

kv_working_set attention_kv_working_set(const scenario& s) {
    const shape x = shape_of(s);
    const double block = x.b * x.s_local * x.kv_dim * x.e, cp = static_cast<double>(s.parallel.cp);
    if (s.parallel.cp == 1) return {block, "b·s·kv·e (the local sequence's K and V)"};
    const auto& row = describe(s.parallel.cp_method);
    if (row.allgather) return {block * cp, "b·s·kv·e (K and V of the whole sequence, gathered)"};
    const double u = static_cast<double>(ulysses_degree_of(s));
    const double kv_scale = u > static_cast<double>(x.kv_r) && s.model.attention != attention_kind::mla ? u / static_cast<double>(x.kv_r) : 1.0;
    if (row.ring) return {2 * block * kv_scale, "2·b·(s/cp)·kv·e (the block computed and the block arriving)"};
    return {block * kv_scale, "b·s·(kv/u)·e × KV-head replication (whole sequence, 1/u of the KV heads)"};
}

context_report context_traffic(const scenario& s, std::int64_t ulysses_degree) {
    context_report r;
    const auto& q = s.parallel;
    const shape x = shape_of(s);
    r.method = q.cp == 1 ? "none" : to_string(q.cp_method);
    if (q.sp && q.tp > 1) add_sp(r, s, x);
    r.kernel_keys = attention_kernel_keys(s);
    if (q.cp == 1) return r;
    check_context_parallel(s, ulysses_degree);
    const auto& row = describe(q.cp_method);
    r.ulysses = ulysses_degree_of(s, ulysses_degree);
    r.ring = row.ring ? q.cp / r.ulysses : 1;
    if (r.ulysses > 1) {
        // KV heads fewer than the degree are replicated up to it (u / kv_r copies each).
        const double kv_scale =
            x.kv_r < r.ulysses && s.model.attention != attention_kind::mla ? static_cast<double>(r.ulysses) / static_cast<double>(x.kv_r) : 1.0;
        add_ulysses(r, x, static_cast<double>(r.ulysses), kv_scale);
        r.constraint = fmt::format("Ulysses degree ≤ heads per TP rank ({})", x.heads_r);
    }
    if (r.ring > 1) {
        add_ring(r, x, static_cast<double>(r.ring));
        r.constraint += std::string(r.constraint.empty() ? "" : "; ") + fmt::format("ring: seq_len in 2·{} chunks for causal balance", r.ring);
    }
    if (row.allgather) {
        add_allgather(r, x, static_cast<double>(q.cp));
        r.constraint = fmt::format("seq_len in 2·{} chunks for causal balance", q.cp);
    }
    return r;
}

}  // namespace tslab
