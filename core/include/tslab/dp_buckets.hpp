// The arithmetic of data-parallel overlap, below the communication inventory that counts its calls:
// Megatron-Core's bucket sizes and counts, the exposed tail of a bucket pipeline, and ZeRO-3's
// per-layer prefetch (dp_overlap.hpp applies them to an inventory).
#pragma once

#include <cstdint>

#include "tslab/scenario.hpp"

namespace tslab {

// Elements per bucket: training.overlap.bucket_elems, or MCore's default max(40M, 1M × dp_size)
// with dp_size the data-parallel group (context parallel included): "larger DP sizes need larger
// buckets to ensure collectives do not become latency-bound"
// (megatron/core/distributed/distributed_data_parallel_config.py, `bucket_size`).
double dp_bucket_elems(const overlap_spec& o, std::int64_t dp_ranks);

// Buckets for `elems` local elements (at least 1).
std::int64_t dp_bucket_count(double elems, double bucket_elems);

// Exposed time of n equal bucket collectives of bucket_s each, issued one after another on one
// communication stream as a window_s-long compute phase makes bucket i ready at i·window_s/n:
// bucket i finishes at max(i·w/n, previous) + c, so the tail after the window is
// max(c, n·c − window_s + window_s/n) (never more than n·c). With ample compute only the last
// bucket shows; with too little, the rest of the traffic does.
double bucketed_exposed_s(double bucket_s, std::int64_t n, double window_s);

// ZeRO-3 prefetch under the same two switches (Megatron-Core's FSDP reads overlap_param_gather and
// overlap_grad_reduce too; PyTorch FSDP's forward and backward prefetch, Zhao et al. arXiv
// 2304.11277 section 3.3): each layer's parameter AllGather runs on its own stream under the previous
// layer's forward (param_gather), and in backward under the next-deeper layer's backward, sharing the
// link with that layer's gradient ReduceScatter (grad_reduce). Per micro-batch, for a stage of L
// layers with per-layer windows f (forward) and b (backward with recompute) and per-layer calls g
// (gather) and r (reduce-scatter), with both on:
//   g + r + (L − 1) · (max(0, g − f) + max(0, g + r − b))
// (the first gather and the last reduce-scatter have nothing to run under); a switch that is off
// leaves its calls exposed. Returns that exposed time per micro-batch.
double zero3_exposed_s(const overlap_spec& o, double gather_s, double reduce_s, double layers, double fwd_window_s, double bwd_window_s);

}  // namespace tslab
