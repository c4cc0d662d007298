// Ring-attention K/V passes under the block kernels: exposed time per pass.
#include "tslab/cp_overlap.hpp"

#include <algorithm>

#include "tslab/context.hpp"

namespace tslab {

void apply_cp_overlap(comm_inventory& inv, const scenario& s, const compute_estimate& c) {
    bool any = false;
    for (const auto& it : inv.items) any = any || it.ring_block;
    if (!any) return;
    const double ring = static_cast<double>(s.parallel.cp / ulysses_degree_of(s));
    const double fwd_kernel = c.attention_core_fwd_s / ring, bwd_kernel = c.attention_core_bwd_s / ring;
    for (auto& it : inv.items) {
        if (it.ring_block && it.step_time_s() > 0) {
            const double pass = it.call.time_s;
            const double exposed =
                it.forward_share * std::max(0.0, pass - fwd_kernel) + (1 - it.forward_share) * std::max(0.0, pass - bwd_kernel / 2);
            it.overlap = 1 - exposed / pass;
        }
    }
    inv.sum_items();
}

}  // namespace tslab
