// L8 optimizer states and Muon's extra communication: Adam's two moments against Muon's one momentum
// on hidden matrices, and the bytes Newton–Schulz needs when the optimizer state is ZeRO-1 sharded.
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

// Newton–Schulz orthogonalises a whole matrix, but ZeRO-1 leaves each of n ranks one contiguous
// 1/n slice of the flattened buffer. Two ways to get whole matrices, bytes received per rank:
//  - gather every matrix on every rank: Σ m·(n−1)/n elements (each rank computes all of them);
//  - gather only the matrices one's own slice touches (Distributed Muon, Moonlight arXiv 2502.16982
//    section 2.3, which Kimi K2 arXiv 2507.20534 section 2.1 trains with): a matrix inside the slice
//    needs nothing, a matrix the slice cuts needs its missing part.
struct muon_gather {
    double whole_elems = 0;  // every matrix on every rank
    double owned_max_elems = 0;  // the rank that gathers most, slice-local pattern
    double owned_mean_elems = 0;
};

// A pattern of matrices (elements each, in buffer order) repeated `repeats` times: a stage's layers
// repeat one pattern, and its experts another (DeepSeek-V3 without EP: 58 MoE layers × 256 experts
// of the same matrices, 44,544 matrices in one block).
struct matrix_block {
    std::vector<double> pattern;
    std::int64_t repeats = 1;
};

// The blocks in buffer order; `ranks`: the sharding group. Only a matrix that a slice boundary
// cuts costs a gather (one inside a slice needs nothing), so the work is O(pattern sizes + ranks ·
// log pattern), not O(matrices).
muon_gather muon_gather_blocks(const std::vector<matrix_block>& blocks, std::int64_t ranks);
// The same from one size per matrix.
muon_gather muon_gather_elems(const std::vector<double>& sizes, std::int64_t ranks);

struct optimizer_compare {
    double params = 0, matrix_params = 0;  // whole model; matrix_params: hidden (layer) matrices
    double adam_state_bytes = 0, muon_state_bytes = 0;  // whole model, in the optimizer dtype
    std::int64_t group = 1;  // ZeRO-1 group of the dense matrices (dp·cp); 1 without ZeRO
    // ZeRO-1 group of the routed-expert matrices: the expert-DP group dp·cp·tp/(ep·etp) that holds
    // the same experts (the memory ledger's rule); 1 without ZeRO or MoE.
    std::int64_t expert_group = 1;
    double bytes_per_elem = 2;  // the gradient dtype the gather moves
    muon_gather dense;  // one stage's dense layer matrices (TP shards as whole matrices)
    muon_gather expert;  // one stage's local expert matrices: E/ep per MoE layer, ETP shards whole
    // Per rank per step, dense + expert: whole = Σ_group m·(n−1)/n over both groups; owned_max adds
    // the busiest rank of each group (an upper bound when those are different ranks).
    double whole_bytes = 0, owned_max_bytes = 0;
};

// Adam: 2 moments per parameter; Muon: 1 momentum on hidden matrices, AdamW's 2 on embeddings,
// head and vectors (Kimi K2 section 2.1; optimizer_rows). Gather sizes from the scenario's layout.
optimizer_compare optimizer_compare_of(const scenario& s);

}  // namespace tslab
