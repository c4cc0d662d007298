// A lower bound of the bubble time_pipeline returns for a simulated schedule, read from the op lists
// once per (schedule, ranks, micro-batches, vpp) and then evaluated for any op costs in O(ranks):
// a search can discard a plan that cannot place even with this bubble before simulating it.
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/pipeline_schedule.hpp"
#include "tslab/pipeline_sim.hpp"

namespace tslab {

// The argument (simulator semantics, pipeline_sim.cpp, without P2P: time_pipeline's bubble is
// makespan(p2p = 0) − busiest rank's busy time). Every op starts no earlier than its inputs are
// ready and its rank is free, and lasts its duration: F = F, B = B, I = B − W, W = W, FB = fb() ≥
// max(F, B) (check_costs). Hence
//  - the forward of (micro-batch, stage s) ends no earlier than (s + 1)·F: stage 0 is ready at 0 and
//    each stage waits for the one before it, whose op (F or FB) lasts ≥ F;
//  - once the backward of (micro-batch, stage s) ends, stages s − 1 .. 0 each still run a backward
//    of that micro-batch, one after the other, each lasting ≥ b_min, the shortest op that completes
//    a backward in this schedule (I = B − W where the schedule splits one, else B, else FB);
//  - a rank runs its ops one after the other: its last op ends ≥ (first op's ready bound) + busy.
// So for every rank r, with its first op's ready bound h_r, its busy time busy_r, and its last op
// that completes a backward at stage s_r followed by ops lasting a_r in all:
//     makespan ≥ h_r + busy_r + max(0, s_r·b_min − a_r),
// and bubble ≥ max_r (h_r + busy_r + max(0, s_r·b_min − a_r)) − max_r busy_r. For 1F1B this is
// exactly its (p − 1)(F + B).
struct bubble_bound {
    // Per rank, op counts by duration: F, B, I, W, FB.
    struct rank_terms {
        double busy[5] = {};
        double head_F = 0, head_b = 0;  // first op's ready bound: head_F·F + head_b·b_min
        double tail_stage = 0;  // stage of the last op that completes a backward (0: none)
        double after[5] = {};  // ops after it, by duration
    };
    std::vector<rank_terms> ranks;
    bool splits = false, full_backward = false;  // the schedule has I ops, B ops
    double ops = 0;  // ops in all (the rounding allowance scales with it)
};

bubble_bound bubble_bound_of(const pipeline_schedule& s);

// The bound for costs `c`, less a rounding allowance, never below 0: at most time_pipeline(q, c)
// .bubble_s for the schedule it was read from whenever time_pipeline simulates it. The argument
// above is exact arithmetic. The simulator's end times are chains of at most `ops` additions of
// non-negative numbers and its busy times sums of at most `ops` differences, so its bubble is
// within 2.5·ops·ε·work of the exact one, `work` being every op's duration plus one P2P delay per
// op (more than either makespan); this evaluation rounds by less than 8·ε·work. The allowance is
// 8·(ops + 1)·ε·work.
double bubble_lower_bound(const bubble_bound& b, const pipeline_costs& c);

}  // namespace tslab
