// Activation bytes kept for backward per transformer layer and micro-batch
// (Korthikanti et al., arXiv 2205.05198, section 4 and Table 2), generalised tensor by tensor.
#pragma once

#include <string>

#include "tslab/scenario.hpp"

namespace tslab {

struct layer_activation {
    double replicated = 0;  // tensors every TP rank keeps whole unless SP splits them (the "10 sbh")
    double split = 0;  // tensors split over TP (the "24 sbh / t")
    double quadratic = 0;  // attention scores, softmax, dropout (the "5 a s² b / t"); 0 with Flash
    double total = 0;
    const char* formula = "";  // the Korthikanti form that applies, in GPT notation (a static string)
};

// Bytes for one layer (dense or MoE MLP) and one micro-batch on one rank, after TP, SP, CP,
// recompute and Flash. `moe_layer` selects the expert MLP.
layer_activation layer_activation_bytes(const scenario& s, bool moe_layer);

// Whether the backward runs the attention core (QKᵀ, softmax, dropout, AV) again. Selective
// recompute does so by design (Korthikanti et al., arXiv 2205.05198 section 4.2.2). Op-level
// recompute keeps what torchtitan's save list names: aten.mm outputs and the fused SDPA kernels'
// (pytorch/torchtitan activation_checkpoint.py, _save_list). Without Flash the core is unfused
// bmm, softmax and dropout, none on that list, so it runs again too. Under Flash neither mode redoes
// it outside the backward kernel, which recomputes QKᵀ itself (compute_flops.cpp).
bool core_recomputed(const scenario& s);

// Whether the backward runs an MLA layer's up-projections again: selective recompute on an MLA
// model keeps the compressed latents (c_q, c_kv, the shared RoPE key) and rebuilds the per-head
// Q, K and V from them, as DeepSeek-V3 does ("we recompute all RMSNorm operations and MLA
// up-projections during back-propagation", arXiv 2412.19437 section 3.2.3) and Megatron-Core's
// recompute_modules "mla_up_proj" offers. Per token that drops a·(2·qk + v) stored elements for
// the GEMMs latent → heads (a·qk of Q only where the model has a query latent).
bool mla_up_recomputed(const scenario& s);

// Bytes outside the layers on the first stage (embedding output) and the last (logits).
double first_stage_other_bytes(const scenario& s);
double last_stage_other_bytes(const scenario& s);

}  // namespace tslab
