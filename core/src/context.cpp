// Sequence and context parallel traffic. Megatron SP: AllReduce → ReduceScatter + AllGather
// (Korthikanti et al. arXiv 2205.05198 section 4.2.2). Ulysses: All-to-All of Q,K,V before and of
// the output after attention (Jacobs et al. arXiv 2309.14509 section 3). Ring attention: cp−1 K/V
// block rotations per pass, overlapped with blockwise attention (Liu et al. arXiv 2310.01889);
// causal balance with 2·cp chunks (Megatron-Core context parallel). USP: Ulysses inside, Ring
// across (Fang and Zhao arXiv 2405.07719).
#include "tslab/context.hpp"

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

std::int64_t auto_ulysses(const scenario& s) {
    const std::int64_t heads_r = s.model.heads / s.parallel.tp;
    for (std::int64_t u = s.parallel.cp; u > 1; --u)
        if (s.parallel.cp % u == 0 && heads_r % u == 0) return u;
    return 1;
}

void add_sp(context_report& r, const scenario& s, const shape& x) {
    const double t = static_cast<double>(s.parallel.tp);
    const double full = x.b * x.s_local * static_cast<double>(s.model.hidden) * x.e;
    r.items.push_back({"sp allgather (before QKV and MLP-up)", "allgather", "tp", full, t, 2, 2, false,
                       "replaces the AllReduce's second half; norms and dropout run on s/t tokens"});
    r.items.push_back({"sp reducescatter (after attention-out and MLP-down)", "reducescatter", "tp", full, t, 2, 2, false,
                       "same bytes as the AllReduce it replaces"});
}

void add_ulysses(context_report& r, const shape& x, double u, double kv_scale) {
    const double tokens = x.b * x.s_local;  // before the first All-to-All, per rank
    r.items.push_back({"ulysses qkv all-to-all", "alltoall", "cp", tokens * (x.q_dim + x.kv_dim * kv_scale) * x.e, u, 1, 1,
                       false, "sequence-sharded → head-sharded"});
    r.items.push_back({"ulysses output all-to-all", "alltoall", "cp", tokens * x.q_dim * x.e, u, 1, 1, false,
                       "head-sharded → sequence-sharded"});
}

void add_ring(context_report& r, const shape& x, double ring, double u) {
    // After Ulysses (u > 1) a rank holds u times the tokens for 1/u of the heads: same block bytes.
    const double block = x.b * x.s_local * x.kv_dim * x.e;
    (void)u;
    r.items.push_back({"ring K/V rotation", "sendrecv", "cp", block, ring, ring - 1, 2 * (ring - 1), true,
                       "one K/V block per step, hidden behind that step's attention; backward also returns dK/dV"});
}

}  // namespace

bool context_rules_hold(const scenario& s, rule_violation* why, std::int64_t ulysses_degree) {
    const auto& q = s.parallel;
    if (q.cp == 1) return true;
    auto fail = [why](auto&& reason) {
        if (why) *why = {"parallel.cp", reason()};
        return false;
    };
    const std::int64_t heads_r = s.model.heads / q.tp;
    const std::int64_t kv_r = std::max<std::int64_t>(1, s.model.kv_heads / q.tp);
    const std::int64_t u = q.cp_method == "ulysses" ? q.cp : q.cp_method == "usp" ? (ulysses_degree ? ulysses_degree : auto_ulysses(s)) : 1;
    if (q.cp_method == "usp" && (u < 1 || q.cp % u != 0))
        return fail([&] { return fmt::format("USP Ulysses degree {} does not divide cp = {}", u, q.cp); });
    if (u > 1 && heads_r % u != 0)
        return fail([&] {
            return fmt::format("Ulysses degree {} does not divide the heads per TP rank ({} / {} = {})", u, s.model.heads, q.tp, heads_r);
        });
    if (u > 1 && s.model.attention != attention_kind::mla && kv_r % u != 0 && u % kv_r != 0)
        return fail([&] {
            return fmt::format("Ulysses degree {} and the KV heads per TP rank ({}) neither divide the other, so KV heads cannot be split or replicated evenly",
                               u, kv_r);
        });
    const std::int64_t ring = q.cp / u;
    if (ring > 1 && s.training.seq_len % (2 * ring) != 0)
        return fail([&] {
            return fmt::format("Ring attention with a causal mask needs training.seq_len = {} in 2·{} equal chunks", s.training.seq_len, ring);
        });
    return true;
}

void check_context_parallel(const scenario& s, std::int64_t ulysses_degree) {
    rule_violation why;
    if (!context_rules_hold(s, &why, ulysses_degree)) throw input_error(why.path, why.reason);
}

context_report context_traffic(const scenario& s, std::int64_t ulysses_degree) {
    context_report r;
    const auto& q = s.parallel;
    const shape x = shape_of(s);
    r.method = q.cp == 1 ? "none" : q.cp_method;
    if (q.sp && q.tp > 1) add_sp(r, s, x);
    if (q.cp == 1) return r;
    check_context_parallel(s, ulysses_degree);
    r.ulysses = q.cp_method == "ulysses" ? q.cp : q.cp_method == "usp" ? (ulysses_degree ? ulysses_degree : auto_ulysses(s)) : 1;
    r.ring = q.cp / r.ulysses;
    if (r.ulysses > 1) {
        // KV heads fewer than the degree are replicated up to it (u / kv_r copies each).
        const double kv_scale = x.kv_r < r.ulysses && s.model.attention != attention_kind::mla
                                    ? static_cast<double>(r.ulysses) / static_cast<double>(x.kv_r) : 1.0;
        add_ulysses(r, x, static_cast<double>(r.ulysses), kv_scale);
        r.constraint = fmt::format("Ulysses degree ≤ heads per TP rank ({})", x.heads_r);
    }
    if (r.ring > 1) {
        add_ring(r, x, static_cast<double>(r.ring), static_cast<double>(r.ulysses));
        r.constraint += std::string(r.constraint.empty() ? "" : "; ") +
                        fmt::format("ring: seq_len in 2·{} chunks for causal balance", r.ring);
    }
    return r;
}

}  // namespace tslab
