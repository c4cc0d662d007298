// Per-chunk pipeline op costs derived from a scenario: the hook the step-time model will replace.
#pragma once

#include "tslab/params.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/pipeline_sim.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// The schedule a scenario runs: its schedule kind, pp ranks, micro-batches and vpp.
schedule_request scenario_schedule_request(const scenario& s, std::int64_t microbatches);

// STEP-TIME HOOK (placeholder until the compute ledger L3 lands): 6·N_active FLOPs per token
// (Kaplan et al. arXiv 2001.08361), split 1:2 between forward and backward, spread evenly over the
// `stages` of a micro-batch's path and over tp·cp, at the GPU's dense bf16 peak; W = B/2, FB = F + B,
// p2p_s = 0. No efficiency, attention or communication terms.
pipeline_costs scenario_pipeline_costs(const scenario& s, const param_counts& c, std::int64_t stages);

}  // namespace tslab
