// The per-GPU memory byte ledger (L1 model state + L2 activations) for the most loaded rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/compute.hpp"
#include "tslab/params.hpp"
#include "tslab/scenario.hpp"
#include "tslab/schedule_shape.hpp"

namespace tslab {

struct memory_item {
    std::string id;  // params, grads, master_params, optimizer_states, redundant_experts,
        // activations_layers, activations_other, comm_buffers, offloaded
    double bytes = 0;
    std::string formula;
};

struct memory_report {
    std::int64_t rank = 0;  // global rank of the most loaded GPU
    std::int64_t stage = 0;  // its pipeline rank
    double total_bytes = 0, capacity_bytes = 0, headroom_bytes = 0;  // headroom < 0: over by that much
    bool fits = true;
    double inflight = 0;  // micro-batch × chunk activations alive on that rank
    std::int64_t layers_on_rank = 0;
    std::vector<memory_item> items;
    std::vector<double> stage_total_bytes;  // HBM total for every pipeline rank
};

// Model-state bytes for P parameters sharded over N data-parallel ranks (ZeRO, arXiv 1910.02054).
struct model_state_bytes {
    double params = 0, grads = 0, master = 0, optimizer = 0;
    double total() const { return params + grads + master + optimizer; }
};
model_state_bytes zero_model_state(const precision_spec& p, int zero, double params, double state_elems, double n);

// Elements of optimizer state per parameter element for `elements` in a tensor (Adam 2, SGD and
// Muon 1 on matrices, Adafactor rows + cols for a factored matrix).
double optimizer_state_elems(optimizer_kind o, bool matrix, double rows, double cols, double copies);

// Redundant expert replicas on one GPU (training.moe.redundant_experts = R slots over the EP group,
// R/ep per GPU, EPLB-style placement, expert_routing.hpp). `local_expert_elems` is the GPU's own
// routed-expert elements (E/ep experts × its MoE layers, ÷ etp), so one replica is local/(E/ep) of
// them and the R/ep replicas hold R/E × local elements. Convention: DeepSeek-V3 (arXiv 2412.19437
// section 3.4) deploys redundant experts for inference, weights only; trained here, a replica also
// keeps its gradient buffer (reduced into the owner's before the update), while master weights and
// optimizer states stay with the owner, which alone updates the expert. Not ZeRO-sharded.
// bytes = R/E × local_expert_elems × (params + grads bytes per element).
double redundant_expert_bytes(const scenario& s, double local_expert_elems);

// `formulas` false leaves every item's formula text empty (the planner's numbers-only pass);
// `tensors`, when given, is tensor_list(s.model) computed once by the caller.
memory_report memory_ledger(const scenario& s, const pipeline_shape& shape, bool formulas = true, const std::vector<tensor_entry>* tensors = nullptr);

// Sums of the report's items: model state (params, grads, master_params, optimizer_states,
// redundant_experts) and
// activations (activations_layers, activations_other), the L1 and L2 bytes.
double model_state_bytes_of(const memory_report& m);
double offloaded_bytes_of(const memory_report& m);  // the "offloaded" item: host memory, not HBM
double activation_bytes_of(const memory_report& m);
// What a checkpoint saves from that GPU: params, master_params and optimizer_states (no grads).
double checkpoint_state_bytes_of(const memory_report& m);

namespace detail {
// Local elements held by one pipeline rank: dense (ZeRO-sharded over dp·cp) and expert
// (sharded over the expert-DP group dp·cp·tp/(ep·etp)), with their optimizer-state elements.
struct rank_shards {
    double dense = 0, expert = 0, dense_states = 0, expert_states = 0;
    double largest_layer = 0;  // elements of the largest local layer (ZeRO-3 gather buffer)
    std::int64_t layers = 0, moe_layers = 0, mtp_layers = 0;  // mtp_layers: MTP blocks (last stage)
    bool first = false, last = false;
};
// Per-layer and per-stage activation bytes; they depend on (layout, micro-batch, recompute) only.
struct activation_terms {
    double layer_moe = 0, layer_dense = 0, first_other = 0, last_other = 0;
    bool operator==(const activation_terms&) const = default;
};
activation_terms activation_terms_of(const scenario& s);

// The terms of one rank's ledger. The report's items (memory_items.cpp, with formula text) and the
// planner's totals are both read from these; each formula exists only here.
//
// Model state after ZeRO (arXiv 1910.02054) and optimizer offload: layout and ZeRO stage only.
struct rank_state {
    model_state_bytes dense, expert;
    double nd = 1, ne = 1;  // ZeRO groups: dp·cp (dense) and expert-DP dp·cp·tp/(ep·etp)
    double keep = 1;  // fraction of master copy and optimizer states left in HBM
    double redundant = 0;  // redundant expert replicas' weights and grads (redundant_expert_bytes)
    double params() const { return dense.params + expert.params; }
    double grads() const { return dense.grads + expert.grads; }
    double master() const { return (dense.master + expert.master) * keep; }
    double optimizer() const { return (dense.optimizer + expert.optimizer) * keep; }
    double host() const { return (dense.master + expert.master + dense.optimizer + expert.optimizer) * (1 - keep); }
    double total() const {
        double t = params();
        t += grads();
        t += master();
        t += optimizer();
        return t + redundant;
    }
};
rank_state rank_state_of(const scenario& s, const rank_shards& st);

// Activations of the micro-batch × chunk units in flight (no ZeRO dependence): layers held for
// backward (minus the offloaded fraction), and the first/last-stage extras.
struct rank_activation {
    double per_chunk = 0, per_layer = 0;  // layers per chunk, bytes per layer (mean over dense/MoE)
    double layers = 0, other = 0;  // in HBM
    double host = 0;  // offloaded layer activations
};
// rank_activation_of in two steps, both inline: the planner evaluates the first once per (class,
// recompute) and the second for every schedule's in-flight count.
struct activation_rates {
    double per_chunk = 0, per_layer = 0, keep = 1, chunks_held = 1;
    double first_other = 0, last_other = 0, mtp_other = 0;  // first_other only on the first stage
    bool first = false, last = false;
};
// Layers per chunk and bytes per layer (the mean of the rank's dense and MoE layers), the share kept
// in HBM, and the first/last-stage extras; each MTP depth keeps a block and its logits on the last.
inline activation_rates activation_rates_of(const scenario& s, const rank_shards& st, double chunks_held, const activation_terms& a) {
    activation_rates r;
    r.chunks_held = chunks_held;
    r.per_chunk = static_cast<double>(st.layers) / chunks_held;
    if (st.layers != 0) {
        const double moe = static_cast<double>(st.moe_layers), dense = static_cast<double>(st.layers) - moe;
        r.per_layer = ((moe > 0 ? a.layer_moe * moe : 0) + (dense > 0 ? a.layer_dense * dense : 0)) / static_cast<double>(st.layers);
    }
    r.keep = 1 - s.training.offload.activations;
    r.first = st.first, r.last = st.last;
    r.first_other = a.first_other, r.last_other = a.last_other;
    // Only the last stage of a model with MTP holds blocks (0 × a finite term is the +0 this gives).
    if (st.mtp_layers != 0)
        r.mtp_other = static_cast<double>(st.mtp_layers) * ((mtp_block_is_moe(s.model) ? a.layer_moe : a.layer_dense) + a.last_other);
    return r;
}
// In-flight (micro-batch × chunk) units × layers per chunk × bytes per layer; the embedding output
// is kept per in-flight unit of the first chunk, the last chunk holds one micro-batch at a time.
inline rank_activation rank_activation_at(const activation_rates& a, double inflight) {
    rank_activation r;
    r.per_chunk = a.per_chunk, r.per_layer = a.per_layer;
    const double act = inflight * r.per_chunk * r.per_layer;
    r.layers = act * a.keep;
    r.host = act * (1 - a.keep);
    r.other = (a.first ? a.first_other * inflight / a.chunks_held : 0) + (a.last ? a.last_other : 0);
    r.other += a.mtp_other;
    return r;
}
inline rank_activation rank_activation_of(const scenario& s, const rank_shards& st, double chunks_held, double inflight, const activation_terms& a) {
    return rank_activation_at(activation_rates_of(s, st, chunks_held, a), inflight);
}

// Communication buffers: ZeRO-3 gather of two layers, PP send/recv, the SP all-gathered input.
struct rank_buffers {
    bool zero3 = false, p2p = false, sp = false;  // which of them the rank holds
    double zero3_bytes = 0, p2p_bytes = 0, sp_bytes = 0;
    double total() const {
        double t = 0;
        if (zero3) t += zero3_bytes;
        if (p2p) t += p2p_bytes;
        if (sp) t += sp_bytes;
        return t;
    }
};
rank_buffers rank_buffers_of(const scenario& s, const rank_shards& st);

// The rank's HBM total from its parts, in the ledger's item order.
inline double stage_total(double state, double layers, double other, double buffers) {
    double total = state;
    total += layers;
    total += other;
    return total + buffers;
}
inline double stage_total(double state, const rank_activation& a, double buffers) { return stage_total(state, a.layers, a.other, buffers); }

// The full ledger of pipeline rank r (memory_items.cpp); `formulas` false skips the text (used for
// the totals of every stage). `a` is activation_terms_of(s).
memory_report ledger_for_rank(const scenario& s, const pipeline_shape& shape, std::int64_t r, const rank_shards& st, const activation_terms& a,
                              bool formulas);

// The planner's numbers-only path: the same terms, hoisted to what each depends on.
//
// Ranks with the same layers (dense, MoE, first, last) and chunk count hold the same shards, so
// their totals differ only through the in-flight count; a rank's total is monotone in that count
// (every term multiplies it by a non-negative factor, and IEEE rounding is monotone). The busiest
// rank's total is therefore the largest over the classes, each at its members' largest in-flight
// count for the micro-batch count at hand (no ordering of the closed forms over ranks is assumed).
struct stage_class {
    std::vector<std::int64_t> ranks;  // the pipeline ranks of the class, ascending
    double chunks_held = 1;
    rank_shards shards;
};
// The shards depend on the layout and the schedule's chunk placement only (not on ZeRO,
// micro-batch or recompute), so the classes are listed once per (layout, schedule, vpp).
std::vector<stage_class> stage_classes(const scenario& s, const pipeline_shape& shape, const std::vector<tensor_entry>& tensors);
// The largest in-flight count over the class's ranks (the closed forms of schedule_shape.hpp).
double class_inflight(const stage_class& c, schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m);
// HBM total of the busiest pipeline rank of `shape` (the largest over the classes).
double peak_stage_bytes(const scenario& s, const pipeline_shape& shape, const std::vector<stage_class>& classes, const activation_terms& a);
}  // namespace detail

}  // namespace tslab
