// L6 expert: per MoE layer dispatch/combine payloads and token counts, capacity factor and padding,
// the busiest EP rank under routing imbalance, and redundant-expert balancing (EPLB / MoonEP style).
// Volumes only: the collectives model turns the payloads into All-to-All time.
#pragma once

#include <cstdint>
#include <vector>

#include "tslab/scenario.hpp"

namespace tslab {

// Per MoE layer, micro-batch and rank, forward (backward moves the same bytes again).
struct moe_layer_traffic {
    double tokens = 0;  // tokens entering the layer on this rank (b·s/cp, split tp/etp ways)
    double routed = 0;  // token-expert pairs sent: tokens × top_k
    double dispatch_bytes = 0;  // routed × hidden × dispatch element (FP8 + 1×128 scales under fp8)
    double combine_bytes = 0;  // routed × hidden × 2 (BF16 combine, DeepSeek-V3 section 3.3.4)
    double remote_fraction = 0;  // (ep−1)/ep of the pairs leave the rank under uniform routing
    double capacity = 0;  // slots per expert: capacity_factor × mean pairs per expert; 0 dropless
    double computed = 0;  // pairs each rank computes: routed, or local experts × capacity
    double padding_fraction = 0;  // computed / routed − 1 (empty capacity slots are still computed)
    double dropped_fraction = 0;  // expected share of pairs over capacity (normal approximation)
};

moe_layer_traffic moe_traffic(const scenario& s);

// E[max of n independent standard normals], by quadrature of n·x·φ(x)·Φ(x)^(n−1).
double expected_max_std_normal(std::int64_t n);

struct expert_balance {
    double mean_load = 0;  // token-expert pairs per EP rank
    double busiest_load = 0;  // expected (or given) busiest rank
    double imbalance = 1;  // busiest / mean
    double sigma = 0;  // std. dev. of one rank's load (uniform routing)
};

// `tokens` routed by the whole EP group, each to top_k distinct experts of `experts` chosen
// uniformly, experts spread evenly over `ep` ranks. A rank's load is a sum of independent
// hypergeometric counts (mean k/ep, variance k·(1/ep)(1−1/ep)(E−k)/(E−1) per token); normal
// approximation with the fixed-total correlation −1/(ep−1) treated exactly:
// E[max] = μ + σ·sqrt(ep/(ep−1))·E[max of ep standard normals].
expert_balance uniform_routing_balance(double tokens, std::int64_t top_k, std::int64_t experts, std::int64_t ep);

// Busiest rank load for per-expert loads placed contiguously (expert i on rank i·ep/E).
double contiguous_busiest(const std::vector<double>& expert_loads, std::int64_t ep);

// Redundant-expert balancing with a static per-rank shape: `redundant` extra slots (a multiple
// of ep, at most the expert count), each given to the expert with the largest load per replica,
// load split evenly over replicas, then replicas packed heaviest-first onto the least-loaded rank
// with a free slot (every rank holds E/ep + redundant/ep). Throws input_error on a bad count.
double eplb_busiest(const std::vector<double>& expert_loads, std::int64_t ep, std::int64_t redundant);

// Expected per-expert loads of uniform routing in sorted order (Blom quantiles of
// N(T·k/E, T·(k/E)(1 − k/E))): the profile the redundancy estimate balances.
std::vector<double> uniform_expert_profile(double tokens, std::int64_t top_k, std::int64_t experts);

struct expert_options {
    double imbalance = 0;  // given busiest/mean; 0: expected max of uniform routing
    std::int64_t redundant_experts = 0;  // extra slots over the EP group (EPLB / MoonEP)
};

struct expert_report {
    moe_layer_traffic traffic;
    expert_balance balance;  // without redundancy
    double balanced_imbalance = 1;  // with the redundant experts (1 when there are none)
    double imbalance_used = 1;  // the factor the step applies to expert compute
};

expert_report expert_ledger(const scenario& s, const expert_options& o);

}  // namespace tslab
