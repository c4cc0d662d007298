// Exact parameter counts, tensor by tensor: embeddings, attention (MHA/GQA/MLA), MLP, experts, norms, head.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

enum class tensor_site { embedding, layer, final_norm, head };
enum class layer_kind { any, dense, moe };  // which layers hold the tensor

// One weight tensor; `copies` instances (e.g. routed experts) of rows × cols each.
struct tensor_entry {
    std::string name;
    tensor_site site = tensor_site::layer;
    layer_kind layers = layer_kind::any;
    std::int64_t rows = 0, cols = 1, copies = 1;
    bool tp_split = false;  // split over TP (over ETP for experts)
    bool expert = false;  // routed expert: split over EP × ETP
    bool matrix() const { return cols > 1; }
    std::int64_t elements() const { return rows * cols * copies; }
};

std::vector<tensor_entry> tensor_list(const model_spec& m);

struct param_counts {
    std::int64_t total = 0;
    std::int64_t active = 0;  // per token: routed experts count top_k of `experts`
    std::int64_t embedding = 0, head = 0, per_dense_layer = 0, per_moe_layer = 0, expert_total = 0;
};

param_counts count_params(const model_spec& m);

// Number of MoE layers among the model's layers (after the leading dense ones).
std::int64_t moe_layer_count(const model_spec& m);

}  // namespace tslab
