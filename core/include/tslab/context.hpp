// L7 context: constraints and per-layer traffic volumes of Megatron sequence parallelism, Ulysses,
// Ring attention and USP (2-D Ulysses × Ring). Volumes only; the collectives model does timing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

// One kind of transfer, per transformer layer, micro-batch and rank.
struct context_item {
    std::string what;       // e.g. "ulysses qkv all-to-all"
    std::string op;         // collective_ops names: allgather, reducescatter, alltoall, sendrecv
    std::string axis;       // "tp" (SP) or "cp"
    double bytes = 0;       // the full buffer of one call on one rank (wire bytes: op's factor)
    double group = 1;       // ranks in the call
    double count_fwd = 0;   // calls in the forward pass
    double count_bwd = 0;   // calls in the backward pass
    bool overlappable = false;  // hidden behind attention compute when fast enough (Ring)
    std::string note;
};

struct context_report {
    std::string method;           // "none", "ring", "ulysses", "usp"
    std::int64_t ulysses = 1, ring = 1;  // the two degrees (USP: both > 1)
    std::vector<context_item> items;
    std::string constraint;       // which rule limits the degree, in words
};

// Throws input_error (path parallel.cp or parallel.tp) when the method cannot split the model:
// Ulysses needs heads per TP rank divisible by its degree and KV heads either divisible by it or
// replicated to fit; Ring with a causal mask needs the sequence in 2·ring equal chunks.
void check_context_parallel(const scenario& s, std::int64_t ulysses_degree = 0);
// The same rules without throwing (the scenario parser and the planner use this one).
bool context_rules_hold(const scenario& s, rule_violation* why, std::int64_t ulysses_degree = 0);

// `ulysses_degree` (USP only): 0 picks the largest divisor of cp that divides the heads per TP rank.
context_report context_traffic(const scenario& s, std::int64_t ulysses_degree = 0);

}  // namespace tslab
