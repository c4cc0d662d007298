// Dispatch/combine bytes of one MoE layer by link, with node-limited routing (expert_dispatch.hpp).
#include "tslab/expert_dispatch.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "tslab/expert.hpp"

namespace tslab {

std::int64_t group_node_limit(const scenario& s, std::int64_t ep_nodes) {
    const moe_spec& m = s.model.moe;
    const std::int64_t G = m.groups, N = ep_nodes, ep = s.parallel.ep, E = m.experts;
    if (!s.model.is_moe() || G <= 1 || m.topk_groups >= G || N <= 1 || ep <= 1) return 0;
    const auto node_of = [&](std::int64_t expert) { return expert * ep / E * N / ep; };
    std::int64_t widest = 1;
    // The layout repeats every G / gcd(G, N) groups (their starts advance by whole nodes).
    for (std::int64_t j = 0, period = G / std::gcd(G, N); j < period && widest < N; ++j)
        widest = std::max(widest, node_of((j + 1) * E / G - 1) - node_of(j * E / G) + 1);
    const std::int64_t limit = m.topk_groups * widest;
    return limit < N ? limit : 0;
}

namespace {

void set_node_limit(dispatch_split& d, const scenario& s, std::int64_t ep_nodes) {
    const std::int64_t given = s.training.moe.node_limit, model = group_node_limit(s, ep_nodes);
    if (given > 0 && (model == 0 || given <= model))
        d.node_limit = given, d.node_limit_from = "training.moe.node_limit";
    else if (model > 0)
        d.node_limit = model, d.node_limit_from = "model.moe.topk_groups";
}

}  // namespace

dispatch_split dispatch_split_of(const scenario& s, std::int64_t ep_nodes, std::int64_t ranks_per_node) {
    dispatch_split d;
    if (!s.model.is_moe()) return d;
    const moe_layer_traffic t = moe_traffic(s);
    const double ep = static_cast<double>(s.parallel.ep), g = static_cast<double>(std::max<std::int64_t>(1, ranks_per_node));
    const double N = static_cast<double>(std::max<std::int64_t>(1, ep_nodes)), k = static_cast<double>(s.model.moe.top_k);
    d.ep_nodes = ep_nodes, d.ranks_per_node = ranks_per_node;
    set_node_limit(d, s, ep_nodes);
    d.tokens = t.tokens;
    d.dispatch_bytes = t.dispatch_bytes, d.combine_bytes = t.combine_bytes;
    const double same_node = (g - 1) / ep, other_node = (ep - g) / ep;  // shares of a rank's pairs
    double net = other_node, nvl = same_node;  // in pair units
    if (d.node_limit > 0 && N > 1) {
        const double reached = std::min({static_cast<double>(d.node_limit), N, k}) * (N - 1) / N;  // remote nodes per token
        net = std::min(other_node, reached / k);
        nvl = same_node + other_node * (g - 1) / g;
    }
    d.dispatch_network_bytes = t.dispatch_bytes * net, d.dispatch_nvlink_bytes = t.dispatch_bytes * nvl;
    d.combine_network_bytes = t.combine_bytes * net, d.combine_nvlink_bytes = t.combine_bytes * nvl;
    d.network_bytes_unlimited = (t.dispatch_bytes + t.combine_bytes) * other_node;
    return d;
}

std::string dispatch_formula(const scenario& s, const dispatch_split& d) {
    return d.node_limit > 0 && d.ep_nodes > 1
        ? fmt::format(
              "network = tokens × min(M={}, N={}, k={})·(N−1)/N × hidden × element; NVLink = pairs × ((g−1)/ep + (ep−g)/ep·(g−1)/g), g = {}; M from "
              "{}",
              d.node_limit, d.ep_nodes, s.model.moe.top_k, d.ranks_per_node, d.node_limit_from)
        : fmt::format("network = pairs × (ep−g)/ep; NVLink = pairs × (g−1)/ep, ep = {}, g = {} per node", s.parallel.ep, d.ranks_per_node);
}

dispatch_split dispatch_split_of(const scenario& s, const mesh_layout& m) {
    const axis_groups& a = m.axis("ep");
    return dispatch_split_of(s, a.max_nodes, std::min(a.size, a.max_per_node));
}

}  // namespace tslab
