// Closed-form stand-ins for L4 and L5 used by the published-measurement validation: the pipeline
// bubble (p−1)/(v·m), Megatron TP AllReduces, the DP gradient AllReduce and the stage-to-stage P2P.
// Kept in this one place so the pipeline simulator and the collectives inventory can replace it.
#pragma once

#include "tslab/compute.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

struct closed_form_step {
    double compute_s = 0;   // L3: estimate_compute's step_compute_s
    double bubble_s = 0;    // L4: (p−1)/(v·m) × the stage's m·(F + B + R), v = vpp when interleaved
    double tp_comm_s = 0;   // L5 tp: ring AllReduce of b·s·h per layer, 2 fwd + 2 bwd (+2 recompute)
    double dp_comm_s = 0;   // L5 dp: ring AllReduce of the rank's gradients, once per step
    double p2p_s = 0;       // L4: activations and their gradients between stages, b·s·h/t each way
    double time_s = 0;      // the sum: nothing overlaps (Megatron-LM as of arXiv 2104.04473)
};

// Ring AllReduce time of `bytes` over n ranks: 2(n−1)/n · bytes / bandwidth + 2(n−1) · latency.
double ring_allreduce_s(double bytes, double n, const link_spec& link);

// Bandwidth one rank of the DP group gets in a ring that crosses nodes: one NIC per GPU, and as
// many parallel rings (NCCL channels) as DP ranks share a node. Within one node: NVLink.
link_spec dp_ring_link(const scenario& s);

closed_form_step closed_form_step_time(const scenario& s, const compute_estimate& c);

}  // namespace tslab
