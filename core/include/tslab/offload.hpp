// What offloading to host memory costs in time: the host-link transfers and the host's optimizer update.
#pragma once

#include <cstdint>

#include "tslab/scenario.hpp"

namespace tslab {

struct offload_cost {
    double optimizer_s = 0;  // per step: gradients out, then the host update beside the params back (never hidden)
    double optimizer_cpu_s = 0;  // of which: the host CPUs' update of the node's offloaded shards
    double activations_s = 0;  // per step: what the per-micro-batch copies leave exposed
};

// Bytes one optimizer step streams through memory per parameter it updates: the gradient read, the
// master copy read and written, each optimizer state read and written (the row's moments per
// element: optimizer_rows; a factored second moment adds nothing per element), the 16-bit params written.
// The same streaming update on the GPU's HBM (compute_time.cpp) and on the host's DRAM (below).
double optimizer_update_bytes(const scenario& s);

// ZeRO-Offload (Ren et al., arXiv 2101.06840 section 4.1): the offloaded share f of the rank's
// master params and optimizer states lives on the host, so each step moves f of the local gradients
// device → host over cluster.host, updates them on the host CPUs and moves f of the updated params
// host → device; the update sits between the backward and the next forward. The host update is
// memory-bound (CPU-Adam, section 5.1, Algorithm 1: it streams the gradient, the fp32 master copy
// and both Adam moments, and writes the fp16 params) and one node's CPUs update the shards of all
// its GPUs: (GPUs on the node) · f · shard · optimizer_update_bytes / cluster.host_memory_bandwidth_Bps,
// a bound at the DRAM's datasheet peak. Algorithm 1 copies each updated tile to the GPU while the
// next tile is updated, so the params' return and the update overlap: out + max(back, update).
// With training.offload.delayed_update (DPU, section 5.2) both run under the next step's m forward
// and backward passes: out + max(0, max(back, update) − m · fwd_bwd_s).
// Activation offload copies f_a of each micro-batch's stored activations out during the forward and
// back during the backward, on a copy stream beside the compute: per micro-batch only what exceeds
// its forward + backward is exposed.
// stage_params: the rank's local parameters (after TP/PP, before ZeRO); act_bytes: one micro-batch's
// stored layer activations on the stage; fwd_bwd_s: one micro-batch's forward, backward and recompute.
offload_cost offload_seconds(const scenario& s, double stage_params, double act_bytes, double fwd_bwd_s, std::int64_t microbatches);

}  // namespace tslab
