// Data-parallel overlap: Megatron-Core's buckets (overlap_grad_reduce, overlap_param_gather) and
// ZeRO-3's per-layer prefetch; exposed DP time = what the exchange leaves after its compute window.
#include "tslab/dp_overlap.hpp"

#include <algorithm>
#include <cmath>

namespace tslab {

namespace {

bool grad_item(const comm_item& it) { return it.call.op == collective_op::reducescatter || it.call.op == collective_op::allreduce; }

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
