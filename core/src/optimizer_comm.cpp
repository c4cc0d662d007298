// Adam vs Muon state bytes and Muon's Newton–Schulz gather under ZeRO-1 sharding.
#include "tslab/optimizer_comm.hpp"

#include <algorithm>
#include <numeric>

#include "tslab/params.hpp"

namespace tslab {

namespace {

// Adds to each rank whose slice overlaps the matrix [a, b) the part it lacks.
void add_cut_matrix(std::vector<double>& got, double a, double b, double slice) {
    const auto n = static_cast<std::int64_t>(got.size());
    const auto first = static_cast<std::int64_t>(a / slice);
    const auto last = std::min<std::int64_t>(n - 1, static_cast<std::int64_t>((b - 1e-9 * slice) / slice));
    for (std::int64_t r = first; r <= last; ++r) {
        const double lo = std::max(a, static_cast<double>(r) * slice), hi = std::min(b, static_cast<double>(r + 1) * slice);
        // An overlap of a rounding error (a matrix starting or ending on a boundary) is no overlap.
        if (hi - lo > 1e-9 * slice) got[static_cast<std::size_t>(r)] += (b - a) - (hi - lo);
    }
}

// The matrices of one block that a slice boundary k·slice falls strictly inside, each once: the
// repeat holding the boundary, then the matrix by the pattern's prefix sums.
void add_cut_matrices(std::vector<double>& got, const matrix_block& blk, double start, double slice) {
    std::vector<double> prefix{0};
    for (double m : blk.pattern) prefix.push_back(prefix.back() + m);
    const double period = prefix.back(), end = start + period * static_cast<double>(blk.repeats);
    const auto n = static_cast<std::int64_t>(got.size());
    std::pair<std::int64_t, std::ptrdiff_t> last_cut{-1, -1};
    for (auto k = static_cast<std::int64_t>(start / slice) + 1; k < n && static_cast<double>(k) * slice < end; ++k) {
        const double boundary = static_cast<double>(k) * slice;
        const auto rep = std::min(blk.repeats - 1, static_cast<std::int64_t>((boundary - start) / period));
        const double base = start + static_cast<double>(rep) * period;
        const auto i = std::max<std::ptrdiff_t>(0, std::upper_bound(prefix.begin(), prefix.end() - 1, boundary - base) - prefix.begin() - 1);
        const double a = base + prefix[static_cast<std::size_t>(i)];
        if (boundary <= a || last_cut == std::pair{rep, i}) continue;
        add_cut_matrix(got, a, a + blk.pattern[static_cast<std::size_t>(i)], slice);
        last_cut = {rep, i};
    }
}

double block_elems(const matrix_block& b) { return std::accumulate(b.pattern.begin(), b.pattern.end(), 0.0) * static_cast<double>(b.repeats); }

}  // namespace

muon_gather muon_gather_blocks(const std::vector<matrix_block>& blocks, std::int64_t ranks) {
    muon_gather g;
    double total = 0;
    for (const matrix_block& b : blocks) total += block_elems(b);
    const double n = static_cast<double>(ranks);
    if (ranks < 2 || total <= 0) return g;
    g.whole_elems = total * (n - 1) / n;
    const double slice = total / n;
    std::vector<double> got(static_cast<std::size_t>(ranks), 0.0);
    double start = 0;
    for (const matrix_block& b : blocks) {
        const double elems = block_elems(b);
        if (elems > 0) add_cut_matrices(got, b, start, slice);
        start += elems;
    }
    g.owned_max_elems = *std::max_element(got.begin(), got.end());
    g.owned_mean_elems = std::accumulate(got.begin(), got.end(), 0.0) / n;
    return g;
}

muon_gather muon_gather_elems(const std::vector<double>& sizes, std::int64_t ranks) { return muon_gather_blocks({{sizes, 1}}, ranks); }

namespace {

// The matrices of one layer of the kind (dense or MoE), expert matrices aside; each TP shard taken
// as the matrix NS sees.
std::vector<double> layer_matrices(const scenario& s, const std::vector<tensor_entry>& list, bool is_moe) {
    std::vector<double> out;
    for (const auto& t : list) {
        if (t.site != tensor_site::layer || !t.matrix() || t.expert) continue;
        if ((t.layers == layer_kind::moe && !is_moe) || (t.layers == layer_kind::dense && is_moe)) continue;
        const double m = static_cast<double>(t.rows * t.cols) / static_cast<double>(t.tp_split ? s.parallel.tp : 1);
        out.insert(out.end(), static_cast<std::size_t>(t.copies), m);
    }
    return out;
}

// One stage's dense layer matrices in buffer order: its dense layers, then its MoE layers.
std::vector<matrix_block> stage_dense_matrices(const scenario& s, const std::vector<tensor_entry>& list) {
    const auto& p = s.parallel;
    const std::int64_t stage = (s.model.layers + p.pp - 1) / p.pp;
    const std::int64_t moe = std::min(stage, moe_layer_count(s.model)), dense = stage - moe;
    return {{layer_matrices(s, list, false), dense}, {layer_matrices(s, list, true), moe}};
}

// One stage's routed-expert matrices in buffer order: per MoE layer its E/ep local experts, each
// expert's matrices split over ETP (the shard NS orthogonalises, as TP shards are for dense ones).
std::vector<matrix_block> stage_expert_matrices(const scenario& s, const std::vector<tensor_entry>& list) {
    const auto& p = s.parallel;
    if (!s.model.is_moe()) return {};
    const std::int64_t stage = (s.model.layers + p.pp - 1) / p.pp;
    const std::int64_t moe = std::min(stage, moe_layer_count(s.model)), local = s.model.moe.experts / p.ep;
    matrix_block expert{.pattern = {}, .repeats = moe * local};
    for (const auto& t : list)
        if (t.site == tensor_site::layer && t.matrix() && t.expert)
            expert.pattern.push_back(static_cast<double>(t.rows * t.cols) / static_cast<double>(p.etp));
    return {expert};
}

}  // namespace

optimizer_compare optimizer_compare_of(const scenario& s) {
    optimizer_compare o;
    const param_counts pc = count_params(s.model);
    o.params = static_cast<double>(pc.total);
    const double moe = static_cast<double>(moe_layer_count(s.model)), dense = static_cast<double>(s.model.layers) - moe;
    const auto list = tensor_list(s.model);
    for (const auto& t : list) {
        if (t.site != tensor_site::layer || !t.matrix()) continue;
        const double layers = t.layers == layer_kind::moe ? moe : t.layers == layer_kind::dense ? dense : moe + dense;
        o.matrix_params += static_cast<double>(t.elements()) * layers;
    }
    const double b = static_cast<double>(dtype_bytes(s.training.precision.optimizer));
    o.adam_state_bytes = 2 * o.params * b;
    o.muon_state_bytes = (o.matrix_params + 2 * (o.params - o.matrix_params)) * b;
    o.group = s.parallel.zero >= 1 ? s.parallel.dp * s.parallel.cp : 1;
    o.bytes_per_elem = static_cast<double>(dtype_bytes(s.training.precision.grads));
    o.dense = muon_gather_blocks(stage_dense_matrices(s, list), o.group);
    const auto& q = s.parallel;
    if (q.zero >= 1 && s.model.is_moe()) o.expert_group = q.dp * q.cp * q.tp / (q.ep * q.etp);
    o.expert = muon_gather_blocks(stage_expert_matrices(s, list), o.expert_group);
    o.whole_bytes = (o.dense.whole_elems + o.expert.whole_elems) * o.bytes_per_elem;
    o.owned_max_bytes = (o.dense.owned_max_elems + o.expert.owned_max_elems) * o.bytes_per_elem;
    return o;
}

}  // namespace tslab
