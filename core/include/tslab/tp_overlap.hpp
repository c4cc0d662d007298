// TransformerEngine's userbuffers TP overlap: sequence-parallel collectives split into ring-exchange
// chunks that run under the GEMM each one feeds (AllGather) or drains (ReduceScatter).
#pragma once

#include "tslab/comm_inventory.hpp"
#include "tslab/compute.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// With training.overlap.tp_comm, sets the overlap of the SP AllGather / ReduceScatter items and the
// inventory totals. Each of a layer's four SP collectives per pass (AllGather before QKV and MLP-up,
// ReduceScatter after attention-out and MLP-down; the backward mirrors them with the data-gradient
// GEMMs) is decomposed into tp chunks, chunk i moving while the GEMM of chunk i−1 runs (Wang et al.,
// "Overlap Communication with Dependent Computation via Decomposition", ASPLOS 2023; TE userbuffers,
// NeMo's tp_comm_overlap). With g the paired GEMM (a quarter of the layer's dense forward GEMMs) and
// c the collective: exposed = max(0, c − g·(tp−1)/tp): the GEMM of the last chunk has nothing
// left to hide. Full recompute's extra forward pair counts as forward.
void apply_tp_overlap(comm_inventory& inv, const scenario& s, const compute_estimate& c);

}  // namespace tslab
