// L7 side by side: Megatron SP and every context-parallel method evaluated on one scenario (bytes
// per layer, link, what hides under attention, memory per rank) plus the causal work per rank with
// and without zig-zag chunks; the `tslab context` command and the wasm context().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/messages.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

// One exchange of a method, per transformer layer and micro-batch on one rank.
struct context_method_item {
    std::string what, op, link;  // link: the mesh class of its group ("intra" NVLink, "inter" network, "mixed")
    double bytes = 0;  // one call's buffer (nccl-tests size)
    double wire_bytes = 0;  // what one rank sends in one call
    double calls = 0;  // calls per layer and micro-batch, forward + backward
    double time_s = 0, exposed_s = 0;  // per layer and micro-batch: calls × one call, and what overlap leaves
    bool under_attention = false;  // a ring pass: runs under the previous block's attention kernel
};

struct context_method_row {
    std::string id, label, source, axis;  // id "sp" or a cp_method_rows name; axis "tp" or "cp"
    bool available = true, active = false;
    std::string reason;  // why not available: the scenario rule it breaks, "path: reason"
    std::string reason_path;  // its path and its reason as a message (messages.hpp)
    message reason_msg;
    std::int64_t degree = 1, ulysses = 1, ring = 1;
    std::vector<context_method_item> items;
    double bytes = 0, wire_bytes = 0, time_s = 0, exposed_s = 0;  // per layer and micro-batch, summed
    double attention_s = 0;  // one layer's attention core, forward + backward, one micro-batch
    double step_l7_s = 0, step_l7_exposed_s = 0, step_s = 0;
    double memory_bytes = 0, activation_bytes = 0, capacity_bytes = 0;
    bool fits = true;
    double kv_bytes = 0;  // attention K/V a rank holds at once for one layer
    std::string kv_formula;
    double kernel_keys = 0;  // keys per attention-kernel call
    double balance_zigzag = 1, balance_contiguous = 1;  // busiest / mean causal work over its sequence split
};

// Causal attention work (query-key pairs with key ≤ query) per rank when `ranks` split a sequence
// of `seq_len` tokens: contiguous chunks, and zig-zag (2·ranks chunks, rank i holds chunks i and
// 2·ranks − 1 − i, as Megatron-Core and Llama 3 §3.3.2 do). Chunk [a, a + c) holds c·a + c(c+1)/2
// pairs, so zig-zag gives every rank c²(2n − 1) + c(c + 1) with c = s/2n: busiest / mean = 1.
struct causal_balance {
    std::int64_t ranks = 1;
    std::vector<double> contiguous, zigzag;  // pairs per rank
    double contiguous_ratio = 1, zigzag_ratio = 1;  // busiest / mean
};
causal_balance causal_work(std::int64_t ranks, double seq_len);

// Every row for the scenario: "sp" at cp = 1 (SP on when tp > 1), then each CP method at the
// scenario's cp. A row whose rules fail is kept with available = false and the reason.
std::vector<context_method_row> context_methods(const json& scenario_doc);

// The facade entry point: a tslab/scenario@1 document in, the tslab/context@1 result out.
std::string context_json_text(const std::string& scenario_text);

}  // namespace tslab
