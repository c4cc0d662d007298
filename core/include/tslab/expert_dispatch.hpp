// L6 dispatch/combine bytes of one MoE layer split by link (NVLink vs network), with node-limited
// routing: the one source of these numbers for the expert report section and the step's EP
// All-to-All time (comm_inventory.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "tslab/mesh.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// Per MoE layer, micro-batch and rank, forward (backward moves the same again). A rank's pairs go
// 1/ep to itself, (g−1)/ep to the other ranks of its node and (ep−g)/ep to other nodes, g = EP ranks
// per node. Plain All-to-All: every remote-node pair crosses the network. Node-limited (DeepEP,
// DeepSeek-V3 arXiv 2412.19437 sections 2.1.2 and 3.2.2): a token crosses the network once per
// remote node it reaches, at most min(M, N, top_k)·(N−1)/N of them on average over N nodes, and is
// forwarded over NVLink to the other (g−1)/g ranks it targets inside that node. M is the tighter of
// training.moe.node_limit and the model's group limit (group_node_limit); node_limit_from names it.
struct dispatch_split {
    std::int64_t ep_nodes = 1, ranks_per_node = 1, node_limit = 0;
    std::string node_limit_from;  // "training.moe.node_limit", "model.moe.topk_groups" or "" (no limit)
    double tokens = 0;  // tokens entering the layer on this rank
    double dispatch_bytes = 0, combine_bytes = 0;  // all pairs (expert.hpp moe_traffic)
    double dispatch_nvlink_bytes = 0, dispatch_network_bytes = 0;
    double combine_nvlink_bytes = 0, combine_network_bytes = 0;
    double network_bytes_unlimited = 0;  // dispatch + combine network bytes without the node limit
    std::string formula;  // dispatch_formula's; the split alone leaves it empty (the step's inventories never read it)
};

dispatch_split dispatch_split_of(const scenario& s, std::int64_t ep_nodes, std::int64_t ranks_per_node);

// The nodes one token reaches at most under the model's group-limited routing (model.moe.groups,
// topk_groups) on an EP group over ep_nodes nodes; 0 = no bound below ep_nodes. Experts sit in order
// on the EP ranks (rank r holds experts [r·E/ep, (r+1)·E/ep)) and a group is E/G contiguous experts,
// so a token reaches topk_groups × (the most nodes one group spans). DeepSeek-V3 on EP 64 over 8
// nodes: 8 groups of one node each, top 4 groups → 4 nodes (arXiv 2412.19437 section 2.1.2).
std::int64_t group_node_limit(const scenario& s, std::int64_t ep_nodes);

// The split's rule in words, with its numbers (the expert section's `formula`).
std::string dispatch_formula(const scenario& s, const dispatch_split& d);

// The split on the mesh's EP groups: the most nodes one group spans, its members per node.
dispatch_split dispatch_split_of(const scenario& s, const mesh_layout& m);

}  // namespace tslab
