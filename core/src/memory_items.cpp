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
    double host = 0;  // bytes moved to host memory by offload
    void add(const char* id, double bytes, const std::function<std::string()>& formula) {
        rep.items.push_back({id, bytes, formulas ? formula() : std::string()});
    }
};

std::string zero_note(int zero, int needed, double n, const char* group) {
    if (zero < needed || n <= 1) return "";
    return fmt::format(" / {:g} (ZeRO-{} over {})", n, zero, group);
}

// "2 B × 1.234e9 params / 64 (ZeRO-3 over dp·cp) + 2 B × 5e9 expert params"
std::string state_formula(std::int64_t bytes, double dense, double expert, int zero, int needed, double nd, double ne,
                          const std::string& what) {
    std::string f = fmt::format("{} B × {:.4g} {}{}", bytes, dense, what, zero_note(zero, needed, nd, "dp·cp"));
    if (expert > 0)
        f += fmt::format(" + {} B × {:.4g} expert {}{}", bytes, expert, what, zero_note(zero, needed, ne, "expert-DP"));
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

void model_state_items(ledger_ctx& c) {
    const auto& p = c.s.parallel;
    const auto& prec = c.s.training.precision;
    const auto& st = c.st;
    const double nd = static_cast<double>(p.dp * p.cp);
    const double ne = nd * static_cast<double>(p.tp) / static_cast<double>(p.ep * p.etp);
    const auto d = zero_model_state(prec, p.zero, st.dense, st.dense_states, nd);
    const auto e = zero_model_state(prec, p.zero, st.expert, st.expert_states, ne);
    const double keep = 1 - c.s.training.offload.optimizer;
    const int z = p.zero;
    c.add("params", d.params + e.params, [&] { return state_formula(dtype_bytes(prec.params), st.dense, st.expert, z, 3, nd, ne, "params"); });
    c.add("grads", d.grads + e.grads, [&] { return state_formula(dtype_bytes(prec.grads), st.dense, st.expert, z, 2, nd, ne, "grads"); });
    c.add("master_params", (d.master + e.master) * keep,
          [&] { return state_formula(dtype_bytes(prec.master), st.dense, st.expert, z, 1, nd, ne, "master"); });
    c.add("optimizer_states", (d.optimizer + e.optimizer) * keep, [&] {
        return state_formula(dtype_bytes(prec.optimizer), st.dense_states, st.expert_states, z, 1, nd, ne,
                             fmt::format("{} state elems", to_string(c.s.training.optimizer)));
    });
    c.host += (d.master + e.master + d.optimizer + e.optimizer) * (1 - keep);
}

double avg_layer_activation(const scenario& s, const rank_shards& st) {
    if (st.layers == 0) return 0;
    const double moe = static_cast<double>(st.moe_layers), dense = static_cast<double>(st.layers) - moe;
    const double bytes = (moe > 0 ? layer_activation_bytes(s, true).total * moe : 0) +
                         (dense > 0 ? layer_activation_bytes(s, false).total * dense : 0);
    return bytes / static_cast<double>(st.layers);
}

// In-flight (micro-batch × chunk) units × layers per chunk × bytes per layer.
void activation_items(ledger_ctx& c) {
    const auto& st = c.st;
    const double chunks_held = static_cast<double>(c.shape.rank_chunks[static_cast<std::size_t>(c.r)].size());
    const double inflight = c.shape.inflight[static_cast<std::size_t>(c.r)];
    const double per_chunk = static_cast<double>(st.layers) / chunks_held;
    const double per_layer = avg_layer_activation(c.s, st);
    const double act = inflight * per_chunk * per_layer, keep = 1 - c.s.training.offload.activations;
    c.rep.inflight = inflight;
    c.add("activations_layers", act * keep, [&] {
        return fmt::format("{:g} in flight × {:g} layers/chunk × {:.4g} B/layer [{}]; {}", inflight, per_chunk, per_layer,
                           layer_activation_bytes(c.s, st.moe_layers > 0).formula, c.shape.inflight_formula);
    });
    c.host += act * (1 - keep);
    const double other = (st.first ? first_stage_other_bytes(c.s) * inflight / chunks_held : 0) +
                         (st.last ? last_stage_other_bytes(c.s) : 0);
    c.add("activations_other", other, [&] {
        std::string f = st.first ? "embedding output × in flight" : "";
        if (st.last) f += std::string(f.empty() ? "" : " + ") + "fp32 logits 4sbV/t";
        return f.empty() ? std::string("none on this stage") : f;
    });
}

void comm_item(ledger_ctx& c) {
    const auto& p = c.s.parallel;
    const auto& t = c.s.training;
    const double e = static_cast<double>(dtype_bytes(t.precision.activations));
    const double sbh = static_cast<double>(t.seq_len / p.cp * t.micro_batch * c.s.model.hidden);
    const bool sp = p.sp && p.tp > 1;
    double bytes = 0;
    std::string f;
    auto add = [&](double b, const char* what) { bytes += b, f += (f.empty() ? "" : " + ") + std::string(what); };
    if (p.zero >= 3) add(2 * c.st.largest_layer * static_cast<double>(dtype_bytes(t.precision.params)), "2 layers gathered (ZeRO-3 prefetch)");
    if (p.pp > 1) add(4 * e * sbh / (sp ? static_cast<double>(p.tp) : 1.0), "P2P send+recv 2×2 e·sbh");
    if (sp) add(e * sbh, "SP all-gathered e·sbh");
    c.add("comm_buffers", bytes, [&] { return f.empty() ? std::string("none") : f; });
}

}  // namespace

memory_report ledger_for_rank(const scenario& s, const pipeline_shape& shape, std::int64_t r, const rank_shards& st,
                              bool formulas) {
    memory_report rep;
    rep.stage = r;
    rep.rank = global_rank_of_stage(s.parallel, r);
    rep.layers_on_rank = st.layers;
    ledger_ctx c{s, shape, r, st, formulas, rep};
    model_state_items(c);
    activation_items(c);
    comm_item(c);
    for (const auto& it : rep.items) rep.total_bytes += it.bytes;
    const offload_spec& off = s.training.offload;
    c.add("offloaded", c.host, [&] {
        return fmt::format("host memory: {:g} of master+optimizer, {:g} of layer activations (not in HBM)", off.optimizer, off.activations);
    });
    rep.capacity_bytes = s.cluster.gpu.hbm_bytes;
    rep.headroom_bytes = rep.capacity_bytes - rep.total_bytes;
    rep.fits = rep.headroom_bytes >= 0;
    return rep;
}

}  // namespace tslab::detail
