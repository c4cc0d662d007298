// Megatron-Core's bucketed data-parallel overlap (overlap_grad_reduce, overlap_param_gather):
// exposed DP time = what the bucket pipeline leaves after its compute window.
#include "tslab/dp_overlap.hpp"

#include <algorithm>
#include <cmath>

namespace tslab {

double dp_bucket_elems(const overlap_spec& o, std::int64_t dp_ranks) {
    if (o.bucket_elems > 0) return o.bucket_elems;
    return std::max(40e6, 1e6 * static_cast<double>(dp_ranks));  // MCore DistributedDataParallelConfig.bucket_size
}

std::int64_t dp_bucket_count(double elems, double bucket_elems) {
    if (!(elems > 0) || !(bucket_elems > 0)) return 1;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(elems / bucket_elems)));
}

double bucketed_exposed_s(double bucket_s, std::int64_t n, double window_s) {
    const double N = static_cast<double>(std::max<std::int64_t>(1, n));
    const double w = std::max(0.0, window_s);
    return std::min(N * bucket_s, std::max(bucket_s, N * bucket_s - w + w / N));
}

namespace {

bool grad_item(const comm_item& it) {
    return it.call.op == collective_op::reducescatter || it.call.op == collective_op::allreduce;
}

}  // namespace

// Megatron buckets only the first pipeline stage ("data-parallel communication on these stages is
// not on the critical path", megatron/core/distributed/distributed_data_parallel.py); the busiest
// stage's per-micro-batch times stand in for stage 0's here.
void apply_dp_bucket_overlap(comm_inventory& inv, const scenario& s, const compute_estimate& c, const stage_comm& per_mb) {
    const auto& o = s.training.overlap;
    if (!o.grad_reduce && !o.param_gather) return;
    const double bwd_window = c.bwd_s + c.recompute_s + per_mb.bwd_s, fwd_window = c.fwd_s + per_mb.fwd_s;
    inv.time_s = inv.exposed_s = 0;
    for (auto& it : inv.items) {
        // ZeRO-2's gradient reduce-scatter runs once per micro-batch (vocabulary.hpp, zero_stage_rows):
        // each round's buckets overlap that micro-batch's backward.
        const bool per_mb = it.per == "micro-batch";
        const bool dp = (it.axis == "dp" || it.axis == "edp") && (it.per == "step" || per_mb);
        const bool grad = dp && o.grad_reduce && grad_item(it);
        const bool param = dp && !per_mb && o.param_gather && it.call.op == collective_op::allgather;
        if (grad || param) {
            const double rounds = per_mb ? static_cast<double>(std::max<std::int64_t>(1, c.microbatches)) : 1;
            const auto n = static_cast<std::int64_t>(std::llround(it.count / rounds));
            const double total = it.step_time_s();
            it.overlap = total > 0 ? 1.0 - rounds * bucketed_exposed_s(it.call.time_s, n, grad ? bwd_window : fwd_window) / total : 0;
        }
        inv.time_s += it.step_time_s();
        inv.exposed_s += it.step_exposed_s();
    }
}

}  // namespace tslab
