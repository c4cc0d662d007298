// Adam vs Muon state bytes and Muon's Newton–Schulz gather under ZeRO-1 sharding.
#include "tslab/optimizer_comm.hpp"

#include <algorithm>
#include <numeric>

#include "tslab/params.hpp"

namespace tslab {

muon_gather muon_gather_elems(const std::vector<double>& sizes, std::int64_t ranks) {
    muon_gather g;
    const double total = std::accumulate(sizes.begin(), sizes.end(), 0.0), n = static_cast<double>(ranks);
    if (ranks < 2 || total <= 0) return g;
    g.whole_elems = total * (n - 1) / n;
    const double slice = total / n;
    std::vector<double> got(static_cast<std::size_t>(ranks), 0.0);
    double start = 0;
    for (double m : sizes) {
        const double end = start + m;
        // Ranks whose slice [r·slice, (r+1)·slice) overlaps [start, end) each need the rest of the matrix.
        const auto first = static_cast<std::int64_t>(start / slice);
        const auto last = std::min<std::int64_t>(ranks - 1, static_cast<std::int64_t>((end - 1e-9 * slice) / slice));
        for (std::int64_t r = first; r <= last && r < ranks; ++r) {
            const double lo = std::max(start, static_cast<double>(r) * slice), hi = std::min(end, static_cast<double>(r + 1) * slice);
            got[static_cast<std::size_t>(r)] += m - (hi - lo);
        }
        start = end;
    }
    g.owned_max_elems = *std::max_element(got.begin(), got.end());
    g.owned_mean_elems = std::accumulate(got.begin(), got.end(), 0.0) / n;
    return g;
}

namespace {

// One stage's dense layer matrices in buffer order, each TP shard taken as the matrix NS sees.
std::vector<double> stage_dense_matrices(const scenario& s) {
    const auto& p = s.parallel;
    const std::int64_t stage = (s.model.layers + p.pp - 1) / p.pp;
    const std::int64_t moe = std::min(stage, moe_layer_count(s.model)), dense = stage - moe;
    const auto list = tensor_list(s.model);
    std::vector<double> out;
    for (std::int64_t l = 0; l < stage; ++l) {
        const bool is_moe = l >= dense;
        for (const auto& t : list) {
            if (t.site != tensor_site::layer || !t.matrix() || t.expert) continue;
            if ((t.layers == layer_kind::moe && !is_moe) || (t.layers == layer_kind::dense && is_moe)) continue;
            const double m = static_cast<double>(t.rows * t.cols) / static_cast<double>(t.tp_split ? p.tp : 1);
            for (std::int64_t c = 0; c < t.copies; ++c) out.push_back(m);
        }
    }
    return out;
}

// One stage's routed-expert matrices in buffer order: per MoE layer its E/ep local experts, each
// expert's matrices split over ETP (the shard NS orthogonalises, as TP shards are for dense ones).
std::vector<double> stage_expert_matrices(const scenario& s) {
    const auto& p = s.parallel;
    if (!s.model.is_moe()) return {};
    const std::int64_t stage = (s.model.layers + p.pp - 1) / p.pp;
    const std::int64_t moe = std::min(stage, moe_layer_count(s.model)), local = s.model.moe.experts / p.ep;
    const auto list = tensor_list(s.model);
    std::vector<double> out;
    for (std::int64_t l = 0; l < moe; ++l)
        for (std::int64_t e = 0; e < local; ++e)
            for (const auto& t : list)
                if (t.site == tensor_site::layer && t.matrix() && t.expert)
                    out.push_back(static_cast<double>(t.rows * t.cols) / static_cast<double>(p.etp));
    return out;
}

}  // namespace

optimizer_compare optimizer_compare_of(const scenario& s) {
    optimizer_compare o;
    const param_counts pc = count_params(s.model);
    o.params = static_cast<double>(pc.total);
    const double moe = static_cast<double>(moe_layer_count(s.model)), dense = static_cast<double>(s.model.layers) - moe;
    for (const auto& t : tensor_list(s.model)) {
        if (t.site != tensor_site::layer || !t.matrix()) continue;
        const double layers = t.layers == layer_kind::moe ? moe : t.layers == layer_kind::dense ? dense : moe + dense;
        o.matrix_params += static_cast<double>(t.elements()) * layers;
    }
    const double b = static_cast<double>(dtype_bytes(s.training.precision.optimizer));
    o.adam_state_bytes = 2 * o.params * b;
    o.muon_state_bytes = (o.matrix_params + 2 * (o.params - o.matrix_params)) * b;
    o.group = s.parallel.zero >= 1 ? s.parallel.dp * s.parallel.cp : 1;
    o.bytes_per_elem = static_cast<double>(dtype_bytes(s.training.precision.grads));
    o.dense = muon_gather_elems(stage_dense_matrices(s), o.group);
    const auto& q = s.parallel;
    if (q.zero >= 1 && s.model.is_moe()) o.expert_group = q.dp * q.cp * q.tp / (q.ep * q.etp);
    o.expert = muon_gather_elems(stage_expert_matrices(s), o.expert_group);
    o.whole_bytes = (o.dense.whole_elems + o.expert.whole_elems) * o.bytes_per_elem;
    o.owned_max_bytes = (o.dense.owned_max_elems + o.expert.owned_max_elems) * o.bytes_per_elem;
    return o;
}

}  // namespace tslab
