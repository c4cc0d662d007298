// The expert report section: routing loads per EP rank, redundant experts, dispatch bytes by link.
#include "tslab/expert_section.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/expert.hpp"
#include "tslab/expert_routing.hpp"
#include "tslab/memory.hpp"
#include "tslab/params.hpp"

namespace tslab {

namespace {

// Balanced per-rank loads: the planner's for skewed routing, the mean for uniform routing.
void fill_loads(expert_section& e, const scenario& s, const expert_report& x, double group) {
    const auto& m = s.model.moe;
    e.mean_pairs = x.balance.mean_load;
    e.busiest_pairs = x.balance.busiest_load;
    if (e.routing == "uniform") {
        e.rank_pairs.assign(static_cast<std::size_t>(e.ep), e.mean_pairs);
        e.balanced_rank_pairs = e.rank_pairs;
        e.balanced_busiest_pairs = x.balanced_imbalance * e.mean_pairs;
        return;
    }
    std::vector<double> loads = routing_expert_shares(s.training.moe.routing, m.experts, m.top_k, e.ep);
    for (double& v : loads) v *= group * static_cast<double>(m.top_k);
    e.rank_pairs = contiguous_rank_loads(loads, e.ep);
    const redundant_plan plan = plan_redundant_experts(loads, e.ep, e.redundant_experts);
    e.balanced_rank_pairs = plan.rank_loads;
    e.balanced_busiest_pairs = plan.busiest;
    for (auto r : plan.replicas) e.replicated_experts += r > 1 ? 1 : 0;
    e.busiest_rank = std::max_element(e.rank_pairs.begin(), e.rank_pairs.end()) - e.rank_pairs.begin();
}

// The memory ledger's redundant_experts item for the last stage (memory.hpp redundant_expert_bytes):
// its own experts are E/ep per MoE layer, each per_expert elements ÷ etp.
void fill_redundant_bytes(expert_section& e, const scenario& s, const compute_estimate& c) {
    double per_expert = 0;
    for (const auto& t : tensor_list(s.model))
        if (t.expert) per_expert += static_cast<double>(t.rows * t.cols) / static_cast<double>(s.parallel.etp);
    const double local = per_expert * static_cast<double>(e.experts / e.ep) * static_cast<double>(c.stage_moe_layers);
    e.redundant_bytes = redundant_expert_bytes(s, local);
    const auto& p = s.training.precision;
    e.redundant_formula = fmt::format(
        "{} replicas / {} experts × {:.4g} local expert params ({:.4g} per expert ÷ etp × {} MoE layers × {} experts) × ({} + {}) B (weights + "
        "grads; master and optimizer states stay with the owner)",
        e.redundant_experts, e.experts, local, per_expert, c.stage_moe_layers, e.experts / e.ep, dtype_bytes(p.params), dtype_bytes(p.grads));
}

}  // namespace

expert_section expert_section_of(const scenario& s, const mesh_layout& m, const compute_estimate& c, const step_result& st) {
    expert_section e;
    e.moe = s.model.is_moe();
    e.routing = s.training.moe.routing.kind;
    e.skew = s.training.moe.routing.skew;
    e.ep = s.parallel.ep;
    if (!e.moe) return e;
    e.experts = s.model.moe.experts;
    e.redundant_experts = s.training.moe.redundant_experts;
    const expert_report x = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts});
    const double group = x.traffic.tokens * static_cast<double>(e.ep);
    fill_loads(e, s, x, group);
    e.imbalance = x.balance.imbalance, e.balanced_imbalance = x.balanced_imbalance, e.imbalance_used = x.imbalance_used;
    e.expert_mean_s = c.expert_step_s;
    e.expert_busiest_s = c.expert_step_s * e.imbalance_used;
    e.imbalance_s = c.expert_step_s * (e.imbalance_used - 1);
    e.busiest_share = st.time_s > 0 ? e.expert_busiest_s / st.time_s : 0;
    fill_redundant_bytes(e, s, c);
    e.dispatch = dispatch_split_of(s, m);
    e.dispatch.formula = dispatch_formula(s, e.dispatch);
    return e;
}

void write_expert_section(json_writer& w, const expert_section& e) {
    const dispatch_split& d = e.dispatch;
    w.begin_object();
    w.field("moe", e.moe).field("routing", e.routing).field("skew", e.skew).field("ep", e.ep).field("experts", e.experts);
    w.field("units", "pairs: token-expert pairs per EP rank, per MoE layer and micro-batch; bytes per MoE layer, micro-batch and rank, forward");
    w.field("rank_pairs", e.rank_pairs).field("mean_pairs", e.mean_pairs).field("busiest_pairs", e.busiest_pairs);
    w.field("busiest_rank", e.busiest_rank).field("imbalance", e.imbalance);
    w.field("redundant_experts", e.redundant_experts).field("replicated_experts", e.replicated_experts);
    w.field("balanced_rank_pairs", e.balanced_rank_pairs).field("balanced_busiest_pairs", e.balanced_busiest_pairs);
    w.field("balanced_imbalance", e.balanced_imbalance).field("imbalance_used", e.imbalance_used);
    w.field("redundant_bytes", e.redundant_bytes).field("redundant_formula", e.redundant_formula);
    w.field("expert_mean_s", e.expert_mean_s).field("expert_busiest_s", e.expert_busiest_s);
    w.field("imbalance_s", e.imbalance_s).field("busiest_share", e.busiest_share);
    w.key("dispatch").begin_object();
    w.field("ep_nodes", d.ep_nodes).field("ranks_per_node", d.ranks_per_node).field("node_limit", d.node_limit);
    w.field("node_limit_from", d.node_limit_from).field("tokens", d.tokens);
    w.field("dispatch_bytes", d.dispatch_bytes).field("combine_bytes", d.combine_bytes);
    w.field("dispatch_nvlink_bytes", d.dispatch_nvlink_bytes).field("dispatch_network_bytes", d.dispatch_network_bytes);
    w.field("combine_nvlink_bytes", d.combine_nvlink_bytes).field("combine_network_bytes", d.combine_network_bytes);
    w.field("network_bytes", d.dispatch_network_bytes + d.combine_network_bytes);
    w.field("network_bytes_unlimited", d.network_bytes_unlimited).field("formula", d.formula);
    w.end_object();
    w.end_object();
}

}  // namespace tslab
