// L7 context: constraints and per-layer traffic volumes of Megatron sequence parallelism, Ulysses,
// Ring attention, USP (2-D Ulysses × Ring) and all-gather CP (Llama 3), and what the attention
// kernel sees under each. Volumes only; the collectives model does timing (comm_inventory.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

// One kind of transfer, per transformer layer, micro-batch and rank.
// The words are string literals (views): a planner builds this report for millions of plans.
struct context_item {
    std::string_view what;  // e.g. "ulysses qkv all-to-all"
    std::string_view op;  // collective_ops names: allgather, reducescatter, alltoall, sendrecv
    std::string_view axis;  // "tp" (SP) or "cp"
    double bytes = 0;  // the full buffer of one call on one rank (wire bytes: op's factor)
    double group = 1;  // ranks in the call
    double count_fwd = 0;  // calls in the forward pass
    double count_bwd = 0;  // calls in the backward pass
    bool overlappable = false;  // a ring block pass: runs under the previous block's attention kernel
    std::string_view part;  // "sp", "ulysses", "ring" or "allgather": which sub-group of the cp axis
    std::string_view note;
};

struct context_report {
    std::string method;  // "none", "ring", "ulysses", "usp", "allgather"
    std::int64_t ulysses = 1, ring = 1;  // the two degrees (USP: both > 1)
    std::vector<context_item> items;
    std::string constraint;  // which rule limits the degree, in words
    double kernel_keys = 0;  // keys per attention-kernel call (attention_kernel_keys)
    double load_balance = 1;  // busiest / mean causal attention work per rank (1: zig-zag 2·cp chunks)
};

// Throws input_error (path parallel.cp or parallel.tp) when the method cannot split the model:
// Ulysses needs heads per TP rank divisible by its degree and KV heads either divisible by it or
// replicated to fit; Ring with a causal mask needs the sequence in 2·ring equal chunks.
void check_context_parallel(const scenario& s, std::int64_t ulysses_degree = 0);
// The same rules without throwing (the scenario parser and the planner use this one).
bool context_rules_hold(const scenario& s, rule_violation* why, std::int64_t ulysses_degree = 0);

// `ulysses_degree` (USP only): 0 picks the largest divisor of cp that divides the heads per TP rank.
context_report context_traffic(const scenario& s, std::int64_t ulysses_degree = 0);

// The Ulysses and ring degrees of the scenario's method (ulysses × ring = cp).
std::int64_t ulysses_degree_of(const scenario& s, std::int64_t ulysses_degree = 0);

// Keys one attention-kernel call walks per query: the whole sequence without CP, under Ulysses
// (heads are split, not the sequence) and under all-gather CP (K/V gathered first); one ring block,
// seq_len / ring, under Ring attention and USP. The FlashAttention rate depends on it (gemm_rate.hpp).
double attention_kernel_keys(const scenario& s);

// The K/V one rank's attention holds at once for one layer and micro-batch, with its formula: the
// local sequence's K/V without CP; under Ulysses the whole sequence for 1/u of the KV heads (times
// the replication of KV heads fewer than u); under Ring and USP the block being computed plus the
// one arriving (2 blocks); under all-gather CP the gathered K/V of the whole sequence.
struct kv_working_set {
    double bytes = 0;
    std::string formula;
};
kv_working_set attention_kv_working_set(const scenario& s);

}  // namespace tslab
