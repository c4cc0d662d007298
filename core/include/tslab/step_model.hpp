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
// DualPipe or DualPipeV hides under the paired chunk of each F&B pair (DeepSeek-V3, arXiv
// 2412.19437 section 3.2.1), chunk by chunk: ep_hidden_s (pipeline_cost_model.hpp) is taken off
// the EP axis; 0 for other schedules.
std::vector<axis_comm> axis_totals(const comm_inventory& c, double ep_hidden_s = 0);
void take_ep_hidden(std::vector<axis_comm>& axes, double ep_hidden_s);

// The share of SMs the EP all-to-all kernels hold: training.moe.comm_sms / cluster.gpu.sms.
double ep_sm_share(const scenario& s);

// The exposed per-layer TP, CP and EP traffic of one micro-batch on the busiest stage (the
// inventory's step totals / micro-batches), split forward / backward by each item's
// forward_share; EP apart (stage_comm), with the SM share of its kernels.
stage_comm stage_comm_per_microbatch(const comm_inventory& c, std::int64_t microbatches, double sm_share);

// The pairs, hidden EP seconds and SM share of a schedule's EP overlap, from its chunk costs.
ep_overlap_report ep_overlap_of(const schedule_request& q, const pipeline_costs& k, double sm_share);

// The step's communication as the step model uses it: the inventory (comm_inventory.hpp) with ring
// CP's passes under their kernels (cp_overlap.hpp), the exposed per-micro-batch TP/CP/EP traffic
// of the busiest stage, then the DP buckets under their windows (dp_overlap.hpp), which include that
// traffic. The report and the planner both call this.
struct step_comm {
    comm_inventory inventory;
    stage_comm per_microbatch;
};
// item_text false: the items' sentences are left empty (build_comm_inventory), as the planner needs.
step_comm step_comm_of(const scenario& s, const mesh_layout& mesh, const param_counts& pc, const compute_estimate& c, std::int64_t microbatches,
                       bool item_text = true);
// The EP and CP axes of axis_totals(step_comm_of(...).inventory), without the other axes' items: the
// TP and DP overlap passes touch only their own axes, ring CP's overlap is applied as there. The
// items are built without their sentences (axis totals read none).
std::vector<axis_comm> ep_cp_axes_of(const scenario& s, const mesh_layout& mesh, const param_counts& pc, const compute_estimate& c);

// Everything assemble_step needs. `timing` gives L4 (bubble and P2P), `comm` L5-L7 traffic, `ep`
// what the schedule's F&B pairs hide of the EP axis.
step_inputs gather_step_inputs(const scenario& s, const compute_estimate& c, const pipeline_timing& timing, const memory_report& m,
                               const comm_inventory& comm, const ep_overlap_report& ep = {});

}  // namespace tslab
