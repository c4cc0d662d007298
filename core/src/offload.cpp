// Offload time (offload.hpp): host-link transfers of offloaded optimizer state and activations.
#include "tslab/offload.hpp"

#include <algorithm>

namespace tslab {

offload_cost offload_seconds(const scenario& s, double stage_params, double act_bytes, double fwd_bwd_s,
                             std::int64_t microbatches) {
    offload_cost c;
    const double host = s.cluster.host.bandwidth_Bps;
    const auto& off = s.training.offload;
    if (host <= 0) return c;
    const auto& p = s.training.precision;
    const auto& q = s.parallel;
    if (off.optimizer > 0) {
        // The shard this rank updates: ZeRO ≥ 1 splits it over the data-parallel (dp × cp) group.
        const double shard = stage_params / (q.zero >= 1 ? static_cast<double>(q.dp * q.cp) : 1.0);
        const double bytes = off.optimizer * shard * static_cast<double>(dtype_bytes(p.reduce_dtype()) + dtype_bytes(p.params));
        c.optimizer_s = bytes / host;
    }
    if (off.activations > 0) {
        const double copy_s = 2 * off.activations * act_bytes / host;  // out in the forward, back in the backward
        c.activations_s = static_cast<double>(microbatches) * std::max(0.0, copy_s - fwd_bwd_s);
    }
    return c;
}

}  // namespace tslab
