// Data-parallel overlap: Megatron-Core's buckets (overlap_grad_reduce, overlap_param_gather) and
// ZeRO-3's per-layer prefetch; exposed DP time = what the exchange leaves after its compute window.
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
    }
    inv.sum_items();
}

double zero3_exposed_s(const overlap_spec& o, double gather_s, double reduce_s, double layers, double fwd_window_s, double bwd_window_s) {
    const double L = std::max(1.0, layers), g = gather_s, r = reduce_s;
    const double fwd = o.param_gather ? g + (L - 1) * std::max(0.0, g - fwd_window_s) : L * g;
    // Under each backward window: what the switches put on the communication stream.
    const double under_bwd = (o.param_gather ? g : 0) + (o.grad_reduce ? r : 0);
    const double bwd = (o.param_gather ? 0 : L * g) + (o.grad_reduce ? r : L * r) + (L - 1) * std::max(0.0, under_bwd - bwd_window_s);
    return fwd + bwd;
}

void apply_zero3_prefetch(comm_inventory& inv, const scenario& s, const compute_estimate& c, const stage_comm& per_mb) {
    const auto& o = s.training.overlap;
    if (s.parallel.zero != 3 || (!o.param_gather && !o.grad_reduce) || c.stage_layers < 1) return;
    // Per layer of the stage: its share of the micro-batch's forward and backward (recompute
    // included), lengthened by the exposed TP/CP/EP exchanges it waits on.
    const double layers = static_cast<double>(c.stage_layers);
    const double f = (c.fwd_s + per_mb.fwd_s + per_mb.ep_fwd_s) / layers;
    const double b = (c.bwd_s + c.recompute_s + per_mb.bwd_s + per_mb.ep_bwd_s) / layers;
    const double m = static_cast<double>(std::max<std::int64_t>(1, c.microbatches));
    for (const std::string_view per : {std::string_view("layer/micro-batch"), std::string_view("MoE layer/micro-batch")}) {
        comm_item* gather = nullptr;
        comm_item* reduce = nullptr;
        for (auto& it : inv.items) {
            if (it.per != per || (it.axis != "dp" && it.axis != "edp")) continue;
            if (it.call.op == collective_op::allgather) gather = &it;
            if (it.call.op == collective_op::reducescatter) reduce = &it;
        }
        if (!gather || !reduce || !(reduce->count > 0)) continue;
        const double kind_layers = reduce->count / m;  // the stage's layers of this kind (one reduce-scatter each per micro-batch)
        const double exposed = m * zero3_exposed_s(o, gather->call.time_s, reduce->call.time_s, kind_layers, f, b);
        const double total = gather->step_time_s() + reduce->step_time_s();
        gather->overlap = reduce->overlap = total > 0 ? std::clamp(1.0 - exposed / total, 0.0, 1.0) : 0;
    }
    inv.sum_items();
}

}  // namespace tslab
