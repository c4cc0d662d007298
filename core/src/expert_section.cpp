// The expert report section: routing loads per EP rank, redundant experts, dispatch bytes by link.
#include "tslab/expert_section.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/expert.hpp"
#include "tslab/expert_routing.hpp"
#include "tslab/params.hpp"

namespace tslab {

dispatch_split dispatch_split_of(const scenario& s, std::int64_t ep_nodes, std::int64_t ranks_per_node) {
    dispatch_split d;
    if (!s.model.is_moe()) return d;
    const moe_layer_traffic t = moe_traffic(s);
    const double ep = static_cast<double>(s.parallel.ep), g = static_cast<double>(std::max<std::int64_t>(1, ranks_per_node));
    const double N = static_cast<double>(std::max<std::int64_t>(1, ep_nodes)), k = static_cast<double>(s.model.moe.top_k);
    d.ep_nodes = ep_nodes, d.ranks_per_node = ranks_per_node, d.node_limit = s.training.moe.node_limit;
    d.tokens = t.tokens;
    d.dispatch_bytes = t.dispatch_bytes, d.combine_bytes = t.combine_bytes;
    const double same_node = (g - 1) / ep, other_node = (ep - g) / ep;  // shares of a rank's pairs
    double net = other_node, nvl = same_node;                            // in pair units
    if (d.node_limit > 0 && N > 1) {
        const double reached = std::min({static_cast<double>(d.node_limit), N, k}) * (N - 1) / N;  // remote nodes per token
        net = std::min(other_node, reached / k);
        nvl = same_node + other_node * (g - 1) / g;
    }
    d.dispatch_network_bytes = t.dispatch_bytes * net, d.dispatch_nvlink_bytes = t.dispatch_bytes * nvl;
    d.combine_network_bytes = t.combine_bytes * net, d.combine_nvlink_bytes = t.combine_bytes * nvl;
    d.network_bytes_unlimited = (t.dispatch_bytes + t.combine_bytes) * other_node;
    d.formula = d.node_limit > 0 && N > 1
                    ? fmt::format("network = tokens × min(M={}, N={}, k={})·(N−1)/N × hidden × element; NVLink = pairs × ((g−1)/ep + (ep−g)/ep·(g−1)/g), g = {}",
                                  d.node_limit, ep_nodes, s.model.moe.top_k, ranks_per_node)
                    : fmt::format("network = pairs × (ep−g)/ep; NVLink = pairs × (g−1)/ep, ep = {}, g = {} per node", s.parallel.ep, ranks_per_node);
    return d;
}

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

// One replica holds one expert's weights and gradients on every MoE layer of the stage.
void fill_redundant_bytes(expert_section& e, const scenario& s, const compute_estimate& c) {
    double per_expert = 0;
    for (const auto& t : tensor_list(s.model))
        if (t.expert) per_expert += static_cast<double>(t.rows * t.cols) / static_cast<double>(s.parallel.etp);
    const auto& p = s.training.precision;
    const double bytes = static_cast<double>(dtype_bytes(p.params) + dtype_bytes(p.grads));
    const double slots = static_cast<double>(e.redundant_experts) / static_cast<double>(e.ep);
    e.redundant_bytes = slots * per_expert * static_cast<double>(c.stage_moe_layers) * bytes;
    e.redundant_formula = fmt::format("{:g} slots per GPU × {:.4g} expert params (÷ etp) × {} MoE layers × ({} + {}) B (params + grads; optimizer states stay with the owner)",
                                      slots, per_expert, c.stage_moe_layers, dtype_bytes(p.params), dtype_bytes(p.grads));
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
    const axis_groups& a = m.axis("ep");
    e.dispatch = dispatch_split_of(s, a.max_nodes, std::min(a.size, a.max_per_node));
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
    w.field("ep_nodes", d.ep_nodes).field("ranks_per_node", d.ranks_per_node).field("node_limit", d.node_limit).field("tokens", d.tokens);
    w.field("dispatch_bytes", d.dispatch_bytes).field("combine_bytes", d.combine_bytes);
    w.field("dispatch_nvlink_bytes", d.dispatch_nvlink_bytes).field("dispatch_network_bytes", d.dispatch_network_bytes);
    w.field("combine_nvlink_bytes", d.combine_nvlink_bytes).field("combine_network_bytes", d.combine_network_bytes);
    w.field("network_bytes", d.dispatch_network_bytes + d.combine_network_bytes);
    w.field("network_bytes_unlimited", d.network_bytes_unlimited).field("formula", d.formula);
    w.end_object();
    w.end_object();
}

}  // namespace tslab
