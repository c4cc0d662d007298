// Userbuffers-style TP overlap: exposed SP collective time after its chunked GEMM.
#include "tslab/tp_overlap.hpp"

#include <algorithm>

namespace tslab {

void apply_tp_overlap(comm_inventory& inv, const scenario& s, const compute_estimate& c) {
    if (!s.training.overlap.tp_comm || s.parallel.tp < 2 || !s.parallel.sp) return;
    const double t = static_cast<double>(s.parallel.tp);
    const double gemm = c.layer_dense_gemm_fwd_s / 4 * (t - 1) / t;  // the paired GEMM's hiding window
    for (auto& it : inv.items) {
        // Userbuffers map the peers' buffers over NVLink (CUDA IPC), so only a TP group inside one
        // NVLink domain overlaps; across nodes the collectives stay where they are.
        const bool sp = it.axis == "tp" && it.call.link == link_class::intra &&
            (it.call.op == collective_op::allgather || it.call.op == collective_op::reducescatter);
        if (sp && it.call.time_s > 0) it.overlap = 1 - std::max(0.0, it.call.time_s - gemm) / it.call.time_s;
    }
    inv.sum_items();
}

}  // namespace tslab
