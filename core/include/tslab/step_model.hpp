// The integrated step model: the inputs of assemble_step (step.hpp) gathered from the compute
// estimate, the pipeline timing, the memory ledger, the communication inventory and the L6-L9 models.
#pragma once

#include <vector>

#include "tslab/comm_inventory.hpp"
#include "tslab/pipeline_cost_model.hpp"
#include "tslab/step.hpp"

namespace tslab {

// Exposed seconds of one stage-to-stage transfer (the inventory's pp send-recv, after overlap.pp);
// 0 without pipeline parallelism. The simulator adds it to every cross-rank dependency.
double pp_transfer_exposed_s(const comm_inventory& c);

// Per-axis step totals of the inventory (dp, edp, tp, pp, ep, cp; only axes with items). EP under
// DualPipe or DualPipeV hides behind the other micro-batch of each F&B pair (DeepSeek-V3, arXiv
// 2412.19437 section 3.2.1): exposed = max(0, exposed without it − the step's compute).
std::vector<axis_comm> axis_totals(const comm_inventory& c, schedule_kind k, double step_compute_s);

// The exposed per-layer TP, CP and EP traffic of one micro-batch on the busiest stage (the
// inventory's step totals / micro-batches), split forward / backward by each item's
// forward_share. EP is left out under schedules that overlap it (describe(k).ep_overlap), whose
// exposed EP axis_totals computes.
stage_comm stage_comm_per_microbatch(const comm_inventory& c, schedule_kind k, std::int64_t microbatches);

// Everything assemble_step needs. `timing` gives L4 (bubble and P2P), `comm` L5-L7 traffic.
step_inputs gather_step_inputs(const scenario& s, const compute_estimate& c, const pipeline_timing& timing,
                               const memory_report& m, const comm_inventory& comm);

}  // namespace tslab
