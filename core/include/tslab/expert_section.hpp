// The report's `expert` section (L6 panel): per-EP-rank loads before and after redundant experts,
// the busiest rank's share of the step, and the dispatch/combine bytes split into NVLink and
// network parts with node-limited routing (expert_dispatch.hpp). Every number the expert panel shows comes from here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/expert_dispatch.hpp"
#include "tslab/json_writer.hpp"
#include "tslab/mesh.hpp"
#include "tslab/scenario.hpp"
#include "tslab/step.hpp"

namespace tslab {

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
