// L6 routing load: the expected share of token-expert pairs each expert receives (uniform, Zipf or a
// measured histogram), the per-EP-rank sums under the static layout, and the greedy redundant-expert
// planner (EPLB style: replicate the hottest experts, pack replicas onto the least-loaded ranks).
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

// Expected shares (sum 1) of the pairs each expert gets, in expert-id order.
// uniform: 1/E each. histogram: the loads normalised. zipf: the expert of popularity rank r gets
// ∝ (r+1)^−skew, no expert above 1/top_k (a token picks an expert at most once: water-filled), and
// popularity ranks are dealt round-robin over the ep ranks (rank j holds popularity ranks j, j+ep, …),
// the most even static layout without replicas.
std::vector<double> routing_expert_shares(const routing_spec& r, std::int64_t experts, std::int64_t top_k, std::int64_t ep);

// Per-rank sums with expert e on rank ⌊e·ep/E⌋ (contiguous, the static layout).
std::vector<double> contiguous_rank_loads(const std::vector<double>& expert_loads, std::int64_t ep);

struct redundant_plan {
    std::vector<double> rank_loads;  // load per EP rank after placement
    std::vector<std::int64_t> replicas;  // copies per expert (1 = no replica)
    std::int64_t slots_used = 0;  // redundant slots the chosen placement fills
    double busiest = 0;  // max of rank_loads
};

// The EPLB-style greedy packing with exactly `redundant` extra slots (a multiple of ep): each slot
// goes to the expert with the largest load per replica, the load splits evenly over its replicas,
// and replicas are packed heaviest first onto the least-loaded rank with a free slot
// (DeepSeek-V3 arXiv 2412.19437 section 3.4; deepseek-ai/EPLB eplb.py balanced_packing).
redundant_plan pack_redundant(const std::vector<double>& expert_loads, std::int64_t ep, std::int64_t redundant);

// The planner's answer with up to `redundant` slots: the static layout when redundant is 0, else the
// best of it and the packings with 0, ep, …, redundant slots. A replica may be sent no tokens, so a layout with fewer slots stays
// reachable and more slots never raise the busiest rank.
redundant_plan plan_redundant_experts(const std::vector<double>& expert_loads, std::int64_t ep, std::int64_t redundant);

}  // namespace tslab
