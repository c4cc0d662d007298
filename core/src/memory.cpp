// Memory ledger: local tensor shards per pipeline rank, ZeRO sharding, activations and buffers.
#include "tslab/memory.hpp"

#include <algorithm>
#include <tuple>

#include "tslab/activation.hpp"
#include "tslab/compute.hpp"
#include "tslab/params.hpp"

namespace tslab {

namespace {

using detail::rank_shards;

struct rank_layers {
    std::int64_t dense = 0, moe = 0, mtp = 0;  // mtp: MTP blocks, on the last stage (compute.hpp)
    bool first = false, last = false;
};

rank_layers layers_of(const scenario& s, const pipeline_shape& shape, std::int64_t r) {
    rank_layers out;
    const std::int64_t L = s.model.layers, dense_until = s.model.is_moe() ? s.model.moe.dense_layers : L;
    for (std::int64_t c : shape.rank_chunks[static_cast<std::size_t>(r)]) {
        const std::int64_t lo = chunk_first_layer(L, shape.chunks, c), hi = chunk_first_layer(L, shape.chunks, c + 1);
        const std::int64_t dense = std::clamp(dense_until, lo, hi) - lo;
        out.dense += dense;
        out.moe += (hi - lo) - dense;
        out.first = out.first || c == 0;
        out.last = out.last || c == shape.chunks - 1;
    }
    if (out.last) out.mtp = s.training.mtp_depth;
    return out;
}

// Per MTP module beyond its block: the projection M_k (2d × d, column-parallel) and two RMSNorms.
void add_mtp_extras(const scenario& s, std::int64_t depth, rank_shards& st) {
    st.mtp_layers = depth;
    if (depth == 0) return;
    const double h = static_cast<double>(s.model.hidden), n = static_cast<double>(depth);
    const double proj_cols = h / static_cast<double>(s.parallel.tp);
    st.dense += n * (2 * h * proj_cols + 2 * h);
    st.dense_states += n *
        (optimizer_state_elems(s.training.optimizer, true, 2 * h, proj_cols, 1) + optimizer_state_elems(s.training.optimizer, false, 2 * h, 1, 1));
}

rank_shards local_shards(const scenario& s, const std::vector<tensor_entry>& tensors, const rank_layers& rl) {
    const auto& p = s.parallel;
    rank_shards st;
    st.first = rl.first;
    st.last = rl.last;
    st.layers = rl.dense + rl.moe;
    st.moe_layers = rl.moe;
    double layer_dense = 0, layer_moe = 0;
    for (const auto& t : tensors) {
        double rows = static_cast<double>(t.rows), cols = static_cast<double>(t.cols), copies = static_cast<double>(t.copies);
        if (t.expert) copies /= static_cast<double>(p.ep);
        const double split = t.expert ? static_cast<double>(p.etp) : (t.tp_split ? static_cast<double>(p.tp) : 1.0);
        (t.matrix() ? cols : rows) /= split;  // column- or vocab-parallel split of the weight
        double count = 0;
        if (t.site == tensor_site::embedding) count = rl.first ? 1 : 0;
        // With tied embeddings and pp > 1 the last stage keeps its own copy of the word embedding.
        if (t.name == "embedding.word" && s.model.tied_embeddings && rl.last && !rl.first) count = 1;
        if (t.site == tensor_site::final_norm || t.site == tensor_site::head) count = rl.last ? 1 : 0;
        if (t.site == tensor_site::layer) {
            const bool mtp_moe = mtp_block_is_moe(s.model);
            const std::int64_t dense = rl.dense + (mtp_moe ? 0 : rl.mtp), moe = rl.moe + (mtp_moe ? rl.mtp : 0);
            count = static_cast<double>(t.layers == layer_kind::dense ? dense : t.layers == layer_kind::moe ? moe : dense + moe);
        }
        const double elems = rows * cols * copies;
        const double states = optimizer_state_elems(s.training.optimizer, t.matrix() && t.site == tensor_site::layer, rows, cols, copies);
        (t.expert ? st.expert : st.dense) += elems * count;
        (t.expert ? st.expert_states : st.dense_states) += states * count;
        if (t.site == tensor_site::layer && t.layers != layer_kind::moe) layer_dense += elems;
        if (t.site == tensor_site::layer && t.layers != layer_kind::dense) layer_moe += elems;
    }
    st.largest_layer = std::max(rl.dense > 0 ? layer_dense : 0.0, rl.moe > 0 ? layer_moe : 0.0);
    add_mtp_extras(s, rl.mtp, st);
    return st;
}

}  // namespace

double optimizer_state_elems(optimizer_kind o, bool matrix, double rows, double cols, double copies) {
    return describe(o).state_elems(matrix, rows, cols) * copies;  // the row (vocabulary.hpp optimizer_rows)
}

double redundant_expert_bytes(const scenario& s, double local_expert_elems) {
    const std::int64_t R = s.training.moe.redundant_experts;
    if (R <= 0 || !s.model.is_moe()) return 0;
    const auto& p = s.training.precision;
    return static_cast<double>(R) / static_cast<double>(s.model.moe.experts) * local_expert_elems *
        static_cast<double>(dtype_bytes(p.params) + dtype_bytes(p.grads));
}

model_state_bytes zero_model_state(const precision_spec& p, int zero, double params, double state_elems, double n) {
    model_state_bytes b;
    b.params = static_cast<double>(dtype_bytes(p.params)) * params / (zero >= 3 ? n : 1.0);
    b.grads = static_cast<double>(dtype_bytes(p.grads)) * params / (zero >= 2 ? n : 1.0);
    b.master = static_cast<double>(dtype_bytes(p.master)) * params / (zero >= 1 ? n : 1.0);
    b.optimizer = static_cast<double>(dtype_bytes(p.optimizer)) * state_elems / (zero >= 1 ? n : 1.0);
    return b;
}

memory_report memory_ledger(const scenario& s, const pipeline_shape& shape, bool formulas, const std::vector<tensor_entry>* given) {
    // Totals for every pipeline rank first (no formula text), then the full ledger of the worst.
    const std::vector<tensor_entry> own = given ? std::vector<tensor_entry>{} : tensor_list(s.model);
    const std::vector<tensor_entry>& tensors = given ? *given : own;
    std::vector<double> totals;
    std::vector<rank_shards> shards;
    const std::int64_t pp = static_cast<std::int64_t>(shape.rank_chunks.size());
    std::int64_t worst = 0;
    const detail::activation_terms act = detail::activation_terms_of(s);
    for (std::int64_t r = 0; r < pp; ++r) {
        shards.push_back(local_shards(s, tensors, layers_of(s, shape, r)));
        totals.push_back(detail::ledger_for_rank(s, shape, r, shards.back(), act, false).total_bytes);
        if (totals.back() > totals[static_cast<std::size_t>(worst)]) worst = r;
    }
    memory_report best = detail::ledger_for_rank(s, shape, worst, shards[static_cast<std::size_t>(worst)], act, formulas);
    best.stage_total_bytes = std::move(totals);
    return best;
}

namespace {

double item_bytes(const memory_report& m, std::initializer_list<const char*> ids) {
    double b = 0;
    for (const auto& it : m.items)
        for (const char* id : ids)
            if (it.id == id) b += it.bytes;
    return b;
}

}  // namespace

double model_state_bytes_of(const memory_report& m) {
    return item_bytes(m, {"params", "grads", "master_params", "optimizer_states", "redundant_experts"});
}
double offloaded_bytes_of(const memory_report& m) { return item_bytes(m, {"offloaded"}); }
double activation_bytes_of(const memory_report& m) { return item_bytes(m, {"activations_layers", "activations_other"}); }
double checkpoint_state_bytes_of(const memory_report& m) { return item_bytes(m, {"params", "master_params", "optimizer_states"}); }

namespace detail {

// Ranks with the same layers (dense, MoE, first, last) hold the same shards; with the same chunk
// count too, their totals differ only through the in-flight count (memory.hpp).
std::vector<stage_class> stage_classes(const scenario& s, const pipeline_shape& shape, const std::vector<tensor_entry>& tensors) {
    std::vector<stage_class> out;
    std::vector<std::tuple<std::int64_t, std::int64_t, bool, bool, double>> keys;  // dense, moe, first, last, chunks
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(shape.rank_chunks.size()); ++r) {
        const rank_layers rl = layers_of(s, shape, r);
        const double chunks = static_cast<double>(shape.rank_chunks[static_cast<std::size_t>(r)].size());
        const auto key = std::tuple{rl.dense, rl.moe, rl.first, rl.last, chunks};
        const auto same = std::find(keys.begin(), keys.end(), key);
        if (same != keys.end()) {
            out[static_cast<std::size_t>(same - keys.begin())].ranks.push_back(r);
            continue;
        }
        keys.push_back(key);
        out.push_back({{r}, chunks, local_shards(s, tensors, rl)});
    }
    return out;
}

activation_terms activation_terms_of(const scenario& s) {
    return {layer_activation_bytes(s, true).total, layer_activation_bytes(s, false).total, first_stage_other_bytes(s), last_stage_other_bytes(s)};
}

rank_state rank_state_of(const scenario& s, const rank_shards& st) {
    const auto& p = s.parallel;
    const auto& t = s.training;
    rank_state r;
    r.nd = static_cast<double>(p.dp * p.cp);
    r.ne = r.nd * static_cast<double>(p.tp) / static_cast<double>(p.ep * p.etp);
    r.dense = zero_model_state(t.precision, p.zero, st.dense, st.dense_states, r.nd);
    r.expert = zero_model_state(t.precision, p.zero, st.expert, st.expert_states, r.ne);
    r.keep = 1 - t.offload.optimizer;
    r.redundant = redundant_expert_bytes(s, st.expert);
    return r;
}

// ZeRO-3 prefetches two layers' params; P2P send + receive buffers, 2 × 2 e·sbh (÷ tp under SP);
// SP all-gathers the e·sbh layer input (Korthikanti et al. arXiv 2205.05198 section 4.2.2).
rank_buffers rank_buffers_of(const scenario& s, const rank_shards& st) {
    const auto& p = s.parallel;
    const auto& t = s.training;
    const double el = static_cast<double>(dtype_bytes(t.precision.activations));
    const double sbh = static_cast<double>(t.seq_len / p.cp * t.micro_batch * s.model.hidden);
    const bool sp = p.sp && p.tp > 1;
    rank_buffers b;
    b.zero3 = zero_stage_rows[static_cast<std::size_t>(p.zero)].gathers_params, b.p2p = p.pp > 1, b.sp = sp;
    if (b.zero3) b.zero3_bytes = 2 * st.largest_layer * static_cast<double>(dtype_bytes(t.precision.params));
    if (b.p2p) b.p2p_bytes = 4 * el * sbh / (sp ? static_cast<double>(p.tp) : 1.0);
    if (b.sp) b.sp_bytes = el * sbh;
    return b;
}

double class_inflight(const stage_class& c, schedule_kind k, std::int64_t pp, std::int64_t vpp, std::int64_t m) {
    // Every row's in-flight count is monotone in the rank (schedule_table.hpp; test_schedule_table),
    // so over the ascending ranks of a class its largest value sits at one end.
    if (c.ranks.empty()) return 0;
    return std::max({0.0, inflight_of(k, pp, vpp, m, c.ranks.front()), inflight_of(k, pp, vpp, m, c.ranks.back())});
}

double peak_stage_bytes(const scenario& s, const pipeline_shape& shape, const std::vector<stage_class>& classes, const activation_terms& a) {
    double worst = 0;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const stage_class& c = classes[i];
        double inflight = 0;
        for (std::int64_t r : c.ranks) inflight = std::max(inflight, shape.inflight[static_cast<std::size_t>(r)]);
        const double b = stage_total(rank_state_of(s, c.shards).total(), rank_activation_of(s, c.shards, c.chunks_held, inflight, a),
                                     rank_buffers_of(s, c.shards).total());
        if (i == 0 || b > worst) worst = b;
    }
    return worst;
}

}  // namespace detail

}  // namespace tslab
