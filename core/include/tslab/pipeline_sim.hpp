// Event-driven simulation of a pipeline schedule: op costs and p2p delay in, timeline, makespan,
// per-rank span/busy/peak in-flight activations, bubble fraction and parameter copies out.
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/pipeline_schedule.hpp"

namespace tslab {

// Seconds per chunk-op. B is the full backward; when a schedule splits it, I = B − W and W = W.
// FB is an overlapped forward + full backward pair on two chunks (DualPipe's F&B), F + B when
// left negative (no overlap benefit).
struct pipeline_costs {
    double F = 1, B = 2, W = 1, FB = -1;
    double p2p_s = 0;  // added to every dependency that crosses ranks
    double fb() const { return FB < 0 ? F + B : FB; }
};

// Throws input_error ("costs.FB: ...") for NaN/inf, negatives, W > B, FB > F + B or FB < max(F, B).
void check_costs(const pipeline_costs& c);

struct op_time {
    double start_s = 0, end_s = 0;
};

struct rank_timing {
    double span_s = 0;  // first op start to last op end
    double busy_s = 0;  // sum of op durations
    std::int64_t peak_inflight = 0;  // micro-batch-chunks alive: from F until W (B when not split)
};

struct pipeline_timeline {
    double makespan_s = 0;
    double bubble_fraction = 0;  // idle share of ranks × makespan
    double param_copies = 1;
    std::vector<rank_timing> ranks;
    std::vector<std::vector<op_time>> times;  // parallel to schedule.rank_ops
};

// Validates while it runs (see validate_schedule); a schedule that would deadlock is an
// input_error naming the stuck ranks, never a hang.
pipeline_timeline simulate_pipeline(const pipeline_schedule& s, const pipeline_costs& c);
// The same, and in the same walk the makespan with c.p2p_s = 0, bit for bit what a second call
// would give (time_schedule's split of the bubble from the exposed P2P).
pipeline_timeline simulate_pipeline(const pipeline_schedule& s, const pipeline_costs& c, double* makespan_no_p2p_s);

}  // namespace tslab
