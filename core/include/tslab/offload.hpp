// What offloading to host memory costs in time: the transfers over the host link per step.
#pragma once

#include <cstdint>

#include "tslab/scenario.hpp"

namespace tslab {

struct offload_cost {
    double optimizer_s = 0;     // per step: gradients out, updated params back (never hidden)
    double activations_s = 0;   // per step: what the per-micro-batch copies leave exposed
};

// ZeRO-Offload (Ren et al., arXiv 2101.06840 section 4.1): the offloaded share f of the rank's
// master params and optimizer states lives on the host, so each step moves f of the local gradients
// device → host and f of the updated params host → device over cluster.host; the update sits between
// the backward and the next forward. Activation offload copies f_a of each micro-batch's stored
// activations out during the forward and back during the backward, on a copy stream beside the
// compute: per micro-batch only what exceeds its forward + backward is exposed.
// stage_params: the rank's local parameters (after TP/PP, before ZeRO); act_bytes: one micro-batch's
// stored layer activations on the stage.
offload_cost offload_seconds(const scenario& s, double stage_params, double act_bytes, double fwd_bwd_s,
                             std::int64_t microbatches);

}  // namespace tslab
