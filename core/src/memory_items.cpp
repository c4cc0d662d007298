// One pipeline rank's memory ledger items, each with the formula that produced its bytes.
#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "tslab/activation.hpp"
#include "tslab/memory.hpp"

namespace tslab::detail {

namespace {

std::string zero_note(int zero, int needed, double n, const char* group) {
    if (zero < needed || n <= 1) return "";
    return fmt::format(" / {:g} (ZeRO-{} over {})", n, zero, group);
}

// "2 B × 1.234e9 dense / 64 (ZeRO-3 over dp·cp) + 2 B × 5e9 expert"
std::string state_formula(std::int64_t bytes, double dense, double expert, int zero, int needed, double nd, double ne,
                          const char* what) {
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

double avg_layer_activation(const scenario& s, const rank_shards& st) {
    if (st.layers == 0) return 0;
    const double dense_layers = static_cast<double>(st.layers - st.moe_layers);
    const double moe = st.moe_layers > 0 ? layer_activation_bytes(s, true).total * static_cast<double>(st.moe_layers) : 0;
    const double dense = dense_layers > 0 ? layer_activation_bytes(s, false).total * dense_layers : 0;
    return (moe + dense) / static_cast<double>(st.layers);
}

}  // namespace

memory_report ledger_for_rank(const scenario& s, const pipeline_shape& shape, std::int64_t r, const rank_shards& st) {
    const auto& p = s.parallel;
    const auto& prec = s.training.precision;
    memory_report rep;
    rep.stage = r;
    rep.rank = global_rank_of_stage(p, r);
    rep.layers_on_rank = st.layers;
    const double nd = static_cast<double>(p.dp * p.cp);
    const double ne = nd * static_cast<double>(p.tp) / static_cast<double>(p.ep * p.etp);
    const auto d = zero_model_state(prec, p.zero, st.dense, st.dense_states, nd);
    const auto e = zero_model_state(prec, p.zero, st.expert, st.expert_states, ne);
    const double off_opt = s.training.offload.optimizer;
    const int z = p.zero;
    rep.items.push_back({"params", d.params + e.params, state_formula(dtype_bytes(prec.params), st.dense, st.expert, z, 3, nd, ne, "params")});
    rep.items.push_back({"grads", d.grads + e.grads, state_formula(dtype_bytes(prec.grads), st.dense, st.expert, z, 2, nd, ne, "grads")});
    rep.items.push_back({"master_params", (d.master + e.master) * (1 - off_opt),
                         state_formula(dtype_bytes(prec.master), st.dense, st.expert, z, 1, nd, ne, "master")});
    rep.items.push_back({"optimizer_states", (d.optimizer + e.optimizer) * (1 - off_opt),
                         state_formula(dtype_bytes(prec.optimizer), st.dense_states, st.expert_states, z, 1, nd, ne,
                                       fmt::format("{} state elems", to_string(s.training.optimizer)).c_str())});
    // Activations: in-flight (micro-batch × chunk) units × layers per chunk × bytes per layer.
    const double chunks_held = static_cast<double>(shape.rank_chunks[static_cast<std::size_t>(r)].size());
    const double inflight = shape.inflight[static_cast<std::size_t>(r)];
    rep.inflight = inflight;
    const double per_layer = avg_layer_activation(s, st);
    const double act = inflight * static_cast<double>(st.layers) / chunks_held * per_layer;
    const double off_act = s.training.offload.activations;
    rep.items.push_back({"activations_layers", act * (1 - off_act),
                         fmt::format("{:g} in flight × {:g} layers/chunk × {:.4g} B/layer [{}]; {}", inflight,
                                     static_cast<double>(st.layers) / chunks_held, per_layer,
                                     layer_activation_bytes(s, st.moe_layers > 0).formula, shape.inflight_formula)});
    double other = 0;
    std::string other_f;
    if (st.first) other += first_stage_other_bytes(s) * inflight / chunks_held, other_f += "embedding output × in flight";
    if (st.last) other += last_stage_other_bytes(s), other_f += std::string(other_f.empty() ? "" : " + ") + "fp32 logits 4sbV/t";
    rep.items.push_back({"activations_other", other, other_f.empty() ? "none on this stage" : other_f});
    const double ebytes = static_cast<double>(dtype_bytes(prec.activations));
    const double sbh = static_cast<double>(s.training.seq_len / p.cp * s.training.micro_batch * s.model.hidden);
    const bool sp = p.sp && p.tp > 1;
    double comm = 0;
    std::string comm_f;
    auto add_comm = [&](double b, const std::string& f) { comm += b, comm_f += (comm_f.empty() ? "" : " + ") + f; };
    if (p.zero >= 3) add_comm(2 * st.largest_layer * static_cast<double>(dtype_bytes(prec.params)), "2 layers gathered (ZeRO-3 prefetch)");
    if (p.pp > 1) add_comm(4 * ebytes * sbh / (sp ? static_cast<double>(p.tp) : 1.0), "P2P send+recv 2×2 e·sbh");
    if (sp) add_comm(ebytes * sbh, "SP all-gathered e·sbh");
    rep.items.push_back({"comm_buffers", comm, comm_f.empty() ? "none" : comm_f});
    for (const auto& it : rep.items) rep.total_bytes += it.bytes;
    const double host = (d.master + e.master + d.optimizer + e.optimizer) * off_opt + act * off_act;
    rep.items.push_back({"offloaded", host, fmt::format("host memory: {:g} of master+optimizer, {:g} of layer activations (not in HBM)", off_opt, off_act)});
    rep.capacity_bytes = s.cluster.gpu.hbm_bytes;
    rep.headroom_bytes = rep.capacity_bytes - rep.total_bytes;
    rep.fits = rep.headroom_bytes >= 0;
    return rep;
}

}  // namespace tslab::detail
