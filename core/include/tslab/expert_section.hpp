// The report's `expert` section (L6 panel): per-EP-rank loads before and after redundant experts,
// the busiest rank's share of the step, and the dispatch/combine bytes split into NVLink and
// network parts with node-limited routing. Every number the expert panel shows comes from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/json_writer.hpp"
#include "tslab/mesh.hpp"
#include "tslab/scenario.hpp"
#include "tslab/step.hpp"

namespace tslab {

// Per MoE layer, micro-batch and rank, forward (backward moves the same again). A rank's pairs go
// 1/ep to itself, (g−1)/ep to the other ranks of its node and (ep−g)/ep to other nodes, g = EP ranks
// per node. Plain All-to-All: every remote-node pair crosses the network. Node-limited (DeepEP,
// DeepSeek-V3 arXiv 2412.19437 sections 2.1.2 and 3.2.2): a token crosses the network once per
// remote node it reaches, at most min(M, N, top_k)·(N−1)/N of them on average over N nodes, and is
// forwarded over NVLink to the other (g−1)/g ranks it targets inside that node.
struct dispatch_split {
    std::int64_t ep_nodes = 1, ranks_per_node = 1, node_limit = 0;
    double tokens = 0;  // tokens entering the layer on this rank
    double dispatch_bytes = 0, combine_bytes = 0;  // all pairs (expert.hpp moe_traffic)
    double dispatch_nvlink_bytes = 0, dispatch_network_bytes = 0;
    double combine_nvlink_bytes = 0, combine_network_bytes = 0;
    double network_bytes_unlimited = 0;  // dispatch + combine network bytes without the node limit
    std::string formula;
};

dispatch_split dispatch_split_of(const scenario& s, std::int64_t ep_nodes, std::int64_t ranks_per_node);

struct expert_section {
    bool moe = false;
    std::string routing;
    double skew = 0;
    std::int64_t ep = 1, experts = 0, redundant_experts = 0;
    // Token-expert pairs per EP rank, per MoE layer and micro-batch (expected loads; uniform routing
    // adds the sampling spread only to busiest_pairs).
    std::vector<double> rank_pairs, balanced_rank_pairs;
    double mean_pairs = 0, busiest_pairs = 0, balanced_busiest_pairs = 0;
    std::int64_t busiest_rank = 0;
    double imbalance = 1, balanced_imbalance = 1, imbalance_used = 1;
    std::int64_t replicated_experts = 0;  // experts with at least one replica
    // Per step: routed-expert compute at the mean rank, at the busiest rank, its excess (the
    // step's expert_imbalance segment) and the busiest rank's expert compute as a share of the step.
    double expert_mean_s = 0, expert_busiest_s = 0, imbalance_s = 0, busiest_share = 0;
    double redundant_bytes = 0;  // per GPU: the replicas' weights and gradients
    std::string redundant_formula;
    dispatch_split dispatch;
};

expert_section expert_section_of(const scenario& s, const mesh_layout& m, const compute_estimate& c, const step_result& st);
void write_expert_section(json_writer& w, const expert_section& e);

}  // namespace tslab
