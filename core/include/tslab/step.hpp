// The step ledger: per-ledger results (L1..L9) assembled into one step time, throughput, MFU and
// a bottleneck sentence. Pipeline bubble and communication arrive from outside (the simulator and
// the communication inventory, or the closed forms of step_closed_form.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tslab/comm_inventory.hpp"
#include "tslab/compute.hpp"
#include "tslab/context.hpp"
#include "tslab/expert.hpp"
#include "tslab/memory.hpp"
#include "tslab/messages.hpp"
#include "tslab/numerics.hpp"
#include "tslab/reliability.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

struct step_ledger {
    std::string id;  // "L1".."L9"
    std::string name;  // "model state", "activation", "compute", ...
    double time_s = 0, exposed_s = 0, bytes = 0;
    std::vector<message> notes_msg;  // clauses, as message ids (messages.hpp)
    std::string notes;  // their English text, "; "-joined
};

// axis_comm, the communication of one axis over the step: comm_inventory.hpp (axis_sums).

// What the F&B pairs of DualPipe or DualPipeV hide of the EP all-to-all on the rank with the fewest
// pairs (pipeline_cost_model.hpp ep_hidden_s); zeros for other schedules and without EP traffic.
struct ep_overlap_report {
    double pairs = 0, hidden_s = 0, sm_share = 0;
};

struct step_inputs {
    compute_estimate compute;  // L3
    double bubble_s = 0;  // L4: idle time of the busiest rank (simulator makespan − busy)
    double p2p_exposed_s = 0;  // L4: stage-to-stage transfers on the critical path
    std::vector<axis_comm> comm;  // L5 takes dp, tp, pp; L6 takes ep; L7 takes cp
    memory_report memory;  // L1, L2
    expert_report expert;  // L6
    context_report context;  // L7 volumes (for notes and bytes)
    numerics_report numerics;  // L8
    reliability_report reliability;  // L9 (not part of step time: see goodput)
    ep_overlap_report ep_overlap;  // L6: already taken off comm's ep axis
};

// One disjoint part of the step time, as the step bar draws it: the parts add up to time_s.
// Ids, in order: compute (forward and backward), recompute, optimizer (L3); fp8_cast (L8, the FP8
// cast kernels); offload_optimizer (L1), offload_activations (L2); dp, edp, tp (L5); ep
// (L6); cp (L7); bubble, p2p (L4); expert_imbalance (L6, the busiest expert rank's excess).
struct step_segment {
    std::string id, ledger;
    double time_s = 0, share = 0;  // share = time_s / step time
};

struct step_result {
    double time_s = 0;  // L3 + exposed L4..L7
    double tokens_per_s = 0;
    double tflops_per_gpu = 0;  // hardware FLOPs (with recompute) per GPU per second, as Megatron prints
    double mfu = 0, hfu = 0;  // model / hardware FLOPs over the dense BF16 peak; hfu ≥ mfu
    // All FLOPs above in compute.hpp's flops_convention (non-causal attention, PaLM appendix B).
    double goodput = 1;  // L9: useful / wall time with failures and checkpoints
    std::vector<step_ledger> ledgers;
    std::vector<step_segment> segments;
    std::vector<message> bottleneck_msg;  // clauses: what binds first, then what the chosen optimisation trades
    std::string bottleneck;  // their English text
    ep_overlap_report ep_overlap;
};

step_result assemble_step(const scenario& s, const step_inputs& in);

// The step time the ledgers add up to, L3 + exposed L4..L7: compute, bubble, P2P, the exposed
// time of every axis but pp (which reaches the step through the simulator) and the busiest
// expert rank's excess c.expert_step_s·(imbalance − 1). assemble_step and the planner use it.
double step_time_of(const compute_estimate& c, double bubble_s, double p2p_exposed_s, const std::vector<axis_comm>& comm, double imbalance_used);

// The step time split into the segments above: every term of step_time_of once, exposed time only.
std::vector<step_segment> step_segments(const compute_estimate& c, double bubble_s, double p2p_exposed_s, const std::vector<axis_comm>& comm,
                                        double imbalance_used, double time_s);

// "L4 pipeline binds first (bubble 23% of the step); ..." plus what the scenario's chosen
// optimisation saves and where it moves the cost. Used by assemble_step.
std::vector<message> bottleneck_sentence(const scenario& s, const step_inputs& in, const step_result& r);

}  // namespace tslab
