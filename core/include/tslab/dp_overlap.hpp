// Data-parallel overlap on an inventory: Megatron-Core's buckets (how much of the gradient
// reduce-scatter or all-reduce and of the parameter all-gather stays exposed when each bucket's
// collective runs under the backward or forward of the layers that follow it) and ZeRO-3's per-layer
// prefetch, each from dp_buckets.hpp's arithmetic.
#pragma once

#include <cstdint>

#include "tslab/comm_inventory.hpp"
#include "tslab/compute.hpp"
#include "tslab/dp_buckets.hpp"
#include "tslab/pipeline_cost_model.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// Sets the overlap of the per-step DP / expert-DP items the bucket model covers (grad_reduce: the
// gradient reduce-scatter or all-reduce, window = backward of the last micro-batch, the only one
// that reduces under gradient accumulation, or each micro-batch's backward for ZeRO-2's per-micro-batch
// rounds; param_gather: the parameter all-gather, window = the
// first micro-batch's forward) and refreshes the inventory's totals. `per_mb` is the stage's
// exposed TP/CP/EP time per micro-batch (it lengthens both windows). No-op when both are off.
void apply_dp_bucket_overlap(comm_inventory& inv, const scenario& s, const compute_estimate& c, const stage_comm& per_mb);

// Sets the overlap of the per-layer ZeRO-3 items (dense and expert, each pair on the stage's
// per-layer windows; both items of a pair get the pair's exposed share) and refreshes the totals.
// No-op below ZeRO-3 or when both switches are off.
void apply_zero3_prefetch(comm_inventory& inv, const scenario& s, const compute_estimate& c, const stage_comm& per_mb);

}  // namespace tslab
