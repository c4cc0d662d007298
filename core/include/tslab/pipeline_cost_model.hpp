// A scenario's pipeline: per-chunk op costs from the compute model (L3), and the bubble and exposed
// P2P time of its schedule (L4), from the simulator or, above the op cap, from the closed forms.
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/pipeline_sim.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// The schedule a scenario runs: its schedule kind, pp ranks, micro-batches and vpp.
schedule_request scenario_schedule_request(const scenario& s, std::int64_t microbatches);

// Exposed TP, CP and EP communication of one micro-batch on the busiest stage (all its chunks),
// forward and backward: it sits on every stage's critical path, so it belongs in the chunk costs
// and the fill and drain wait for it too (Calculon, Isaev et al. SC 2023, section 3: the pipeline
// bubble is counted in whole micro-batch block times, TP communication included).
struct stage_comm {
    double fwd_s = 0, bwd_s = 0;
};

// Per-chunk op costs: the busiest stage's per-micro-batch forward, input-gradient backward (with
// recompute) and weight-gradient time from estimate_compute, scaled to one chunk of the schedule
// (a stage's layers × ranks / stages on the path: 1/vpp interleaved, 1/2 V-shaped, 1 DualPipe).
// B is the full backward (I + W); FB = F + B (no overlap credit); p2p_s is one exposed transfer.
// `comm` is added to F and to B (the input-gradient part: W has no TP/CP/EP traffic), per chunk.
pipeline_costs chunk_costs(const compute_estimate& c, const schedule_request& q, double p2p_s, const stage_comm& comm = {});

struct pipeline_timing {
    bool simulated = false;   // false: closed forms (one stage, where they are exact, or above max_schedule_ops)
    double makespan_s = 0;    // first op start to last op end over all ranks
    double busy_s = 0;        // op time of the busiest rank
    double bubble_s = 0;      // its idle time without P2P: makespan(p2p = 0) − busy
    double p2p_exposed_s = 0; // what P2P adds to the makespan
    double bubble_fraction = 0;
    double param_copies = 1;
    std::vector<double> peak_inflight;  // per rank (simulated only)
};

// Simulates the schedule (twice when p2p_s > 0, to separate the bubble from P2P); throws input_error
// when the request breaks a schedule precondition. Above the op cap, closed forms (the row's bubble,
// schedule_table.hpp): busy = m·(F + B)·stages/ranks, the
// DualPipe README bubble with chunk costs (GPipe, 1F1B, interleaved (p−1)(F+B); ZB-H1 (p−1)(F+B−2W);
// ZB-H2 and ZB-V the same (p−1)(F+I−W), exact at F = I = W where it is the (p−1)F start offset of
// their parallelogram (arXiv 2401.10241 sections 3.1 and 6: no idle inside any rank's span), an
// estimate otherwise; DualPipe (p/2−1)(F&B+B−3W); DualPipeV on p devices (p−1)(F&B+B−3W)) and the
// 2(p−1) transfers of the fill and drain as exposed P2P.
pipeline_timing time_pipeline(const schedule_request& q, const pipeline_costs& c);
pipeline_timing closed_form_pipeline(const schedule_request& q, const pipeline_costs& c);

}  // namespace tslab
