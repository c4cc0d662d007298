// Per-expert routing shares, static per-rank loads and the greedy redundant-expert planner.
#include "tslab/expert_routing.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {

// Caps every share at `cap` and hands the excess to the uncapped ones in proportion (water-filling).
void cap_shares(std::vector<double>& p, double cap) {
    for (int pass = 0; pass < 64; ++pass) {
        double excess = 0, free_mass = 0;
        for (double x : p) (x >= cap ? excess += x - cap : free_mass += x);  // at the cap: no longer free
        if (excess <= 1e-15 || free_mass <= 0) return;
        for (double& x : p) x = x >= cap ? cap : x * (1 + excess / free_mass);
    }
}

std::vector<double> zipf_shares(double skew, std::int64_t experts, std::int64_t top_k, std::int64_t ep) {
    const std::int64_t per = experts / std::max<std::int64_t>(1, ep);
    std::vector<double> by_rank(static_cast<std::size_t>(experts));
    for (std::int64_t r = 0; r < experts; ++r) by_rank[static_cast<std::size_t>(r)] = std::pow(static_cast<double>(r + 1), -skew);
    const double sum = std::accumulate(by_rank.begin(), by_rank.end(), 0.0);
    for (double& x : by_rank) x /= sum;
    if (top_k > 1) cap_shares(by_rank, 1.0 / static_cast<double>(top_k));
    std::vector<double> out(by_rank.size());
    for (std::int64_t e = 0; e < experts; ++e) {
        const std::int64_t rank = e / per, slot = e % per;  // expert e sits on rank e / per
        out[static_cast<std::size_t>(e)] = by_rank[static_cast<std::size_t>(slot * ep + rank)];
    }
    return out;
}

}  // namespace

std::vector<double> routing_expert_shares(const routing_spec& r, std::int64_t experts, std::int64_t top_k, std::int64_t ep) {
    if (r.kind == "zipf") return zipf_shares(r.skew, experts, top_k, ep);
    if (r.kind == "histogram") {
        std::vector<double> out = r.histogram;
        const double sum = std::accumulate(out.begin(), out.end(), 0.0);
        for (double& x : out) x /= sum;
        return out;
    }
    return std::vector<double>(static_cast<std::size_t>(experts), 1.0 / static_cast<double>(experts));
}

std::vector<double> contiguous_rank_loads(const std::vector<double>& loads, std::int64_t ep) {
    std::vector<double> out(static_cast<std::size_t>(ep), 0.0);
    const auto E = static_cast<std::int64_t>(loads.size());
    for (std::int64_t e = 0; e < E; ++e) out[static_cast<std::size_t>(e * ep / E)] += loads[static_cast<std::size_t>(e)];
    return out;
}

redundant_plan pack_redundant(const std::vector<double>& loads, std::int64_t ep, std::int64_t redundant) {
    const auto E = static_cast<std::int64_t>(loads.size());
    if (redundant < 0 || redundant % ep != 0)
        throw input_error("training.moe.redundant_experts",
                          msg("expert.redundant_not_multiple", {{"redundant", fmt::format("{}", redundant)}, {"ep", fmt::format("{}", ep)}}));
    redundant_plan p;
    p.replicas.assign(loads.size(), 1);
    for (std::int64_t i = 0; i < redundant; ++i) {
        std::size_t hot = 0;
        for (std::size_t e = 1; e < loads.size(); ++e)
            if (loads[e] / static_cast<double>(p.replicas[e]) > loads[hot] / static_cast<double>(p.replicas[hot])) hot = e;
        ++p.replicas[hot];
    }
    std::vector<double> pieces;
    for (std::size_t e = 0; e < loads.size(); ++e)
        for (std::int64_t r = 0; r < p.replicas[e]; ++r) pieces.push_back(loads[e] / static_cast<double>(p.replicas[e]));
    std::sort(pieces.begin(), pieces.end(), std::greater<>());
    const std::int64_t slots = (E + redundant) / ep;
    p.rank_loads.assign(static_cast<std::size_t>(ep), 0.0);
    std::vector<std::int64_t> used(static_cast<std::size_t>(ep), 0);
    for (double x : pieces) {
        std::size_t best = p.rank_loads.size();
        for (std::size_t r = 0; r < p.rank_loads.size(); ++r)
            if (used[r] < slots && (best == p.rank_loads.size() || p.rank_loads[r] < p.rank_loads[best])) best = r;
        p.rank_loads[best] += x;
        ++used[best];
    }
    p.slots_used = redundant;
    p.busiest = *std::max_element(p.rank_loads.begin(), p.rank_loads.end());
    return p;
}

redundant_plan plan_redundant_experts(const std::vector<double>& loads, std::int64_t ep, std::int64_t redundant) {
    redundant_plan best;
    best.rank_loads = contiguous_rank_loads(loads, ep);
    best.replicas.assign(loads.size(), 1);
    best.busiest = *std::max_element(best.rank_loads.begin(), best.rank_loads.end());
    if (redundant % ep != 0) pack_redundant(loads, ep, redundant);  // throws the error
    if (redundant == 0) return best;  // no slots asked for: the static layout stays (no rebalancing)
    for (std::int64_t r = 0; r <= redundant; r += ep) {
        redundant_plan p = pack_redundant(loads, ep, r);
        if (p.busiest < best.busiest * (1 - 1e-12)) best = std::move(p);
    }
    return best;
}

}  // namespace tslab
