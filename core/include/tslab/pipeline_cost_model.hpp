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
// EP all-to-all (dispatch + combine) is kept apart: schedules that pair chunks (DualPipe, DualPipeV)
// hide it under the paired chunk's compute, at the price of the SMs its kernels hold (sm_share).
struct stage_comm {
    double fwd_s = 0, bwd_s = 0;  // TP and CP
    double ep_fwd_s = 0, ep_bwd_s = 0;  // EP all-to-all
    double sm_share = 0;  // SMs held by the EP kernels / the GPU's SMs
};

// One phase of an overlapped F&B pair: `compute_s` of one chunk runs while `comm_s` of the other
// chunk's all-to-all is in flight. The comm kernels hold `sm_share` of the SMs while they run, so
// compute inside that window goes at (1 − sm_share) of its rate (DeepSeek-V3 arXiv 2412.19437
// section 3.2.2: 20 of the H800's 132 SMs; DeepEP's default Buffer.num_sms = 20):
// comm_s if the compute fits in the window, else compute_s + sm_share·comm_s.
double overlapped_phase_s(double compute_s, double comm_s, double sm_share);

// F&B pairs on the pipeline rank that has the fewest, by the closed form of the DualPipe
// generator's phases (pipeline_schedule_dualpipe.cpp: 2(M − 2N + h + 1) in phase 4, less the
// pivot's first pair, plus N − h − 1 in phase 5; least at h = 0, or at the pivot when N = 1);
// 0 for schedules without pairs and for one stage.
double fewest_overlapped_pairs(const schedule_request& q);

// EP seconds per step that the pairs hide on that rank: pairs × (F + B − FB) of the chunk costs.
double ep_hidden_s(const schedule_request& q, const pipeline_costs& c);

// Per-chunk op costs: the busiest stage's per-micro-batch forward, input-gradient backward (with
// recompute) and weight-gradient time from estimate_compute, scaled to one chunk of the schedule
// (a stage's layers × ranks / stages on the path: 1/vpp interleaved, 1/2 V-shaped, 1 DualPipe).
// B is the full backward (I + W); p2p_s is one exposed transfer. `comm` (TP, CP and EP) is added to
// F and to B (the input-gradient part: W has no TP/CP/EP traffic), per chunk. FB = F + B, except
// under schedules that overlap EP (describe(k).ep_overlap): each chunk's all-to-all runs under the
// other chunk's compute, FB = phase(B compute, F all-to-all) + phase(F compute, B all-to-all) + TP/CP.
pipeline_costs chunk_costs(const compute_estimate& c, const schedule_request& q, double p2p_s, const stage_comm& comm = {});

struct pipeline_timing {
    bool simulated = false;  // false: closed forms (one stage, where they are exact, or above max_schedule_ops)
    double makespan_s = 0;  // first op start to last op end over all ranks
    double busy_s = 0;  // op time of the busiest rank
    double bubble_s = 0;  // its idle time without P2P: makespan(p2p = 0) − busy
    double p2p_exposed_s = 0;  // what P2P adds to the makespan
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
// The simulated branch of time_pipeline, on the schedule generated from the request (a caller that
// already holds it need not generate it again).
pipeline_timing time_schedule(const pipeline_schedule& sched, const pipeline_costs& c);
pipeline_timing closed_form_pipeline(const schedule_request& q, const pipeline_costs& c);

}  // namespace tslab
