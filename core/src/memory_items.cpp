// One pipeline rank's memory ledger items, each with the formula that produced its bytes.
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "tslab/activation.hpp"
#include "tslab/memory.hpp"

namespace tslab::detail {

namespace {

struct ledger_ctx {
    const scenario& s;
    const pipeline_shape& shape;
    std::int64_t r;
    const rank_shards& st;
    bool formulas;
    memory_report& rep;
    void add(const char* id, double bytes, const std::function<std::string()>& formula) {
        rep.items.push_back({id, bytes, formulas ? formula() : std::string()});
    }
};

std::string zero_note(int zero, int needed, double n, const char* group) {
    if (zero < needed || n <= 1) return "";
    return fmt::format(" / {:g} (ZeRO-{} over {})", n, zero, group);
}

// "2 B × 1.234e9 params / 64 (ZeRO-3 over dp·cp) + 2 B × 5e9 expert params"
std::string state_formula(std::int64_t bytes, double dense, double expert, int zero, int needed, double nd, double ne, const std::string& what) {
    std::string f = fmt::format("{} B × {:.4g} {}{}", bytes, dense, what, zero_note(zero, needed, nd, "dp·cp"));
    if (expert > 0) f += fmt::format(" + {} B × {:.4g} expert {}{}", bytes, expert, what, zero_note(zero, needed, ne, "expert-DP"));
    return f;
}

// Global rank of the first GPU of pipeline rank r: coordinates are 0 on every other axis.
std::int64_t global_rank_of_stage(const parallel_spec& p, std::int64_t r) {
    std::int64_t stride = 1;
    std::istringstream axes(p.order);
    for (std::string axis; std::getline(axes, axis, '-');) {
        if (axis == "pp") return r * stride;
        if (axis == "tp") stride *= p.tp;
        if (axis == "cp") stride *= p.cp;
        if (axis == "dp") stride *= p.dp;
    }
    return r * stride;
}

void model_state_items(ledger_ctx& c, const rank_state& m) {
    const auto& prec = c.s.training.precision;
    const auto& st = c.st;
    const int z = c.s.parallel.zero;
    const double nd = m.nd, ne = m.ne;
    c.add("params", m.params(), [&] { return state_formula(dtype_bytes(prec.params), st.dense, st.expert, z, 3, nd, ne, "params"); });
    c.add("grads", m.grads(), [&] { return state_formula(dtype_bytes(prec.grads), st.dense, st.expert, z, 2, nd, ne, "grads"); });
    c.add("master_params", m.master(), [&] { return state_formula(dtype_bytes(prec.master), st.dense, st.expert, z, 1, nd, ne, "master"); });
    c.add("optimizer_states", m.optimizer(), [&] {
        return state_formula(dtype_bytes(prec.optimizer), st.dense_states, st.expert_states, z, 1, nd, ne,
                             fmt::format("{} state elems", to_string(c.s.training.optimizer)));
    });
    // Listed only when the scenario asks for replicas (the item list stays as it was otherwise).
    const std::int64_t R = c.s.training.moe.redundant_experts;
    if (R > 0 && c.s.model.is_moe())
        c.add("redundant_experts", m.redundant, [&] {
            return fmt::format(
                "{} replicas / {} experts × {:.4g} local expert params × ({} + {}) B (weights + grads; master and optimizer states stay with the "
                "owner)",
                R, c.s.model.moe.experts, st.expert, dtype_bytes(prec.params), dtype_bytes(prec.grads));
        });
}

void activation_items(ledger_ctx& c, const rank_activation& a, double inflight) {
    const auto& st = c.st;
    c.rep.inflight = inflight;
    c.add("activations_layers", a.layers, [&] {
        return fmt::format("{:g} in flight × {:g} layers/chunk × {:.4g} B/layer [{}]; {}", inflight, a.per_chunk, a.per_layer,
                           layer_activation_bytes(c.s, st.moe_layers > 0).formula, c.shape.inflight_formula);
    });
    c.add("activations_other", a.other, [&] {
        std::string f = st.first ? "embedding output × in flight" : "";
        if (st.last) f += std::string(f.empty() ? "" : " + ") + "fp32 logits 4sbV/t";
        if (st.mtp_layers > 0) f += fmt::format(" + {} MTP × (one layer + its logits)", st.mtp_layers);
        return f.empty() ? std::string("none on this stage") : f;
    });
}

void comm_item(ledger_ctx& c, const rank_buffers& b) {
    c.add("comm_buffers", b.total(), [&] {
        std::string f;
        auto name = [&](bool held, const char* what) {
            if (held) f += (f.empty() ? "" : " + ") + std::string(what);
        };
        name(b.zero3, "2 layers gathered (ZeRO-3 prefetch)");
        name(b.p2p, "P2P send+recv 2×2 e·sbh");
        name(b.sp, "SP all-gathered e·sbh");
        return f.empty() ? std::string("none") : f;
    });
}

}  // namespace

memory_report ledger_for_rank(const scenario& s, const pipeline_shape& shape, std::int64_t r, const rank_shards& st, const activation_terms& a,
                              bool formulas) {
    memory_report rep;
    rep.stage = r;
    rep.rank = global_rank_of_stage(s.parallel, r);
    rep.layers_on_rank = st.layers;
    const auto ri = static_cast<std::size_t>(r);
    const rank_state state = rank_state_of(s, st);
    const rank_activation act = rank_activation_of(s, st, static_cast<double>(shape.rank_chunks[ri].size()), shape.inflight[ri], a);
    const rank_buffers buffers = rank_buffers_of(s, st);
    ledger_ctx c{s, shape, r, st, formulas, rep};
    model_state_items(c, state);
    activation_items(c, act, shape.inflight[ri]);
    comm_item(c, buffers);
    rep.total_bytes = stage_total(state.total(), act, buffers.total());
    const offload_spec& off = s.training.offload;
    c.add("offloaded", state.host() + act.host, [&] {
        return fmt::format("host memory: {:g} of master+optimizer, {:g} of layer activations (not in HBM)", off.optimizer, off.activations);
    });
    rep.capacity_bytes = s.cluster.gpu.hbm_bytes;
    rep.headroom_bytes = rep.capacity_bytes - rep.total_bytes;
    rep.fits = rep.headroom_bytes >= 0;
    return rep;
}

}  // namespace tslab::detail
