// How much of ring attention's K/V block passes the attention kernels hide: each pass runs under
// the kernel of the block before it, so a pass is exposed only by what it takes beyond that kernel.
#pragma once

#include "tslab/comm_inventory.hpp"
#include "tslab/compute.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// Sets the overlap of every ring_block item (comm_inventory.hpp) and the inventory totals. Ring
// attention (Liu et al., arXiv 2310.01889 section 3; Megatron-Core's ring CP) splits one layer's
// attention into `ring` block kernels; pass i travels while block i−1 is computed. Forward: one K/V
// pass per block kernel of core_fwd / ring seconds, exposed max(0, pass − kernel). Backward: the
// K/V pass and the dK/dV pass share one backward block kernel (core_bwd / ring), each exposed
// max(0, pass − kernel / 2). So short chunks (small blocks, attention ∝ s²/ring² but bytes ∝ s/ring)
// leave the exchange exposed, long ones hide it.
void apply_cp_overlap(comm_inventory& inv, const scenario& s, const compute_estimate& c);

}  // namespace tslab
