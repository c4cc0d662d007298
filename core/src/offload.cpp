// Offload time (offload.hpp): host-link transfers and the host update of offloaded optimizer state,
// and the exposed copies of offloaded activations.
#include "tslab/offload.hpp"

#include <algorithm>

namespace tslab {

double optimizer_update_bytes(const scenario& s) {
    const auto& p = s.training.precision;
    // States read and written per element of a hidden matrix, the bulk of the parameters (the row's
    // moments; a factored second moment is rows + cols per matrix, nothing per element).
    const double states = describe(s.training.optimizer).moments;
    return static_cast<double>(dtype_bytes(p.grads) + 2 * dtype_bytes(p.master) + dtype_bytes(p.params)) +
        2 * states * static_cast<double>(dtype_bytes(p.optimizer));
}

offload_cost offload_seconds(const scenario& s, double stage_params, double act_bytes, double fwd_bwd_s, std::int64_t microbatches) {
    offload_cost c;
    const double host = s.cluster.host.bandwidth_Bps;
    const auto& off = s.training.offload;
    if (host <= 0) return c;
    const auto& p = s.training.precision;
    const auto& q = s.parallel;
    if (off.optimizer > 0) {
        // The shard this rank updates: ZeRO ≥ 1 splits it over the data-parallel (dp × cp) group.
        const double shard = off.optimizer * stage_params / (q.zero >= 1 ? static_cast<double>(q.dp * q.cp) : 1.0);
        const double out_s = shard * static_cast<double>(dtype_bytes(p.reduce_dtype())) / host;
        const double back_s = shard * static_cast<double>(dtype_bytes(p.params)) / host;
        const double on_node = static_cast<double>(std::min(s.cluster.gpus_per_node, std::max<std::int64_t>(1, q.world())));
        c.optimizer_cpu_s = on_node * shard * optimizer_update_bytes(s) / s.cluster.host_memory_bandwidth_Bps;
        // DPU: the update and the params' way back run under the next step's forward and backward.
        const double behind_s = std::max(back_s, c.optimizer_cpu_s);
        const double window_s = off.delayed_update ? static_cast<double>(microbatches) * fwd_bwd_s : 0.0;
        c.optimizer_s = out_s + std::max(0.0, behind_s - window_s);
    }
    if (off.activations > 0) {
        const double copy_s = 2 * off.activations * act_bytes / host;  // out in the forward, back in the backward
        c.activations_s = static_cast<double>(microbatches) * std::max(0.0, copy_s - fwd_bwd_s);
    }
    return c;
}

}  // namespace tslab
