// MoE token traffic, capacity/padding/drops, busiest-rank statistics and redundant-expert packing.
#include "tslab/expert.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/expert_routing.hpp"
#include "tslab/sync.hpp"

namespace tslab {

namespace {

constexpr double pi = 3.14159265358979323846;

double phi(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * pi); }
double big_phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// E[(L − C)+] / E[L] for L ~ N(mu, sd²): the share of pairs an expert drops at capacity C.
double dropped_share(double mu, double sd, double cap) {
    if (sd <= 0) return std::max(0.0, mu - cap) / mu;
    const double z = (cap - mu) / sd;
    return (sd * phi(z) - (cap - mu) * (1 - big_phi(z))) / mu;
}

}  // namespace

moe_layer_traffic moe_traffic(const scenario& s) {
    moe_layer_traffic t;
    const auto& m = s.model;
    if (!m.is_moe()) return t;
    const auto& q = s.parallel;
    const double k = static_cast<double>(m.moe.top_k), E = static_cast<double>(m.moe.experts);
    const double ep = static_cast<double>(q.ep), h = static_cast<double>(m.hidden);
    t.tokens = static_cast<double>(s.training.micro_batch * s.training.seq_len / q.cp) / (static_cast<double>(q.tp) / static_cast<double>(q.etp));
    t.routed = t.tokens * k;
    const bool fp8 = s.training.precision.gemm == dtype::fp8;
    t.dispatch_bytes = t.routed * h * (fp8 ? 1.0 + 4.0 / 128.0 : 2.0);
    t.combine_bytes = t.routed * h * 2.0;
    t.remote_fraction = (ep - 1) / ep;
    t.computed = t.routed;
    const double cf = m.moe.capacity_factor;
    if (cf > 0) {
        const double group = t.tokens * ep;  // tokens routed by the EP group
        const double mu = group * k / E;  // mean pairs per expert
        const double sd = std::sqrt(group * (k / E) * (1 - k / E));
        t.capacity = std::ceil(cf * mu);
        t.computed = t.capacity * E / ep;
        t.dropped_fraction = dropped_share(mu, sd, t.capacity);
    }
    t.padding_fraction = t.computed / t.routed - 1;
    return t;
}

namespace {

double expected_max_quadrature(std::int64_t n) {
    const double nn = static_cast<double>(n);
    const int steps = 4000;  // Simpson on [−10, 10]
    const double a = -10, b = 10, dx = (b - a) / steps;
    double sum = 0;
    for (int i = 0; i <= steps; ++i) {
        const double x = a + i * dx;
        const double f = x * nn * phi(x) * std::pow(big_phi(x), nn - 1);
        sum += f * (i == 0 || i == steps ? 1 : (i % 2 ? 4 : 2));
    }
    return sum * dx / 3;
}

}  // namespace

// Memoised: the quadrature costs ~12k pow/exp/erfc calls and a step or a planner asks for the same
// few EP degrees again and again.
double expected_max_std_normal(std::int64_t n) {
    if (n <= 1) return 0;
    static std::mutex lock;
    static std::map<std::int64_t, double> known;
    const std::lock_guard<std::mutex> guard(lock);
    auto it = known.find(n);
    if (it == known.end()) it = known.emplace(n, expected_max_quadrature(n)).first;
    return it->second;
}

expert_balance uniform_routing_balance(double tokens, std::int64_t top_k, std::int64_t experts, std::int64_t ep) {
    expert_balance b;
    const double k = static_cast<double>(top_k), E = static_cast<double>(experts), n = static_cast<double>(ep);
    b.mean_load = tokens * k / n;
    if (ep <= 1) {
        b.busiest_load = b.mean_load;
        return b;
    }
    const double per_token_var = E > 1 ? k * (1 / n) * (1 - 1 / n) * (E - k) / (E - 1) : 0;
    b.sigma = std::sqrt(tokens * per_token_var);
    b.busiest_load = b.mean_load + b.sigma * std::sqrt(n / (n - 1)) * expected_max_std_normal(ep);
    b.imbalance = b.busiest_load / b.mean_load;
    return b;
}

double contiguous_busiest(const std::vector<double>& loads, std::int64_t ep) {
    const std::size_t per = loads.size() / static_cast<std::size_t>(ep);
    double worst = 0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(ep); ++r)
        worst = std::max(worst, std::accumulate(loads.begin() + r * per, loads.begin() + (r + 1) * per, 0.0));
    return worst;
}

double eplb_busiest(const std::vector<double>& loads, std::int64_t ep, std::int64_t redundant) {
    const auto E = static_cast<std::int64_t>(loads.size());
    if (redundant < 0 || redundant % ep != 0)
        throw input_error("expert.redundant_experts",
                          msg("expert.redundant_not_multiple", {{"redundant", fmt::format("{}", redundant)}, {"ep", fmt::format("{}", ep)}}));
    if (redundant > E)
        throw input_error("expert.redundant_experts",
                          msg("expert.redundant_exceeds", {{"redundant", fmt::format("{}", redundant)}, {"experts", fmt::format("{}", E)}}));
    std::vector<double> replicas(loads.size(), 1.0);
    for (std::int64_t i = 0; i < redundant; ++i) {
        std::size_t hot = 0;
        for (std::size_t e = 1; e < loads.size(); ++e)
            if (loads[e] / replicas[e] > loads[hot] / replicas[hot]) hot = e;
        replicas[hot] += 1;
    }
    std::vector<double> pieces;
    for (std::size_t e = 0; e < loads.size(); ++e)
        for (int r = 0; r < static_cast<int>(replicas[e]); ++r) pieces.push_back(loads[e] / replicas[e]);
    std::sort(pieces.begin(), pieces.end(), std::greater<>());
    const std::int64_t slots = (E + redundant) / ep;
    std::vector<double> rank_load(static_cast<std::size_t>(ep), 0.0);
    std::vector<std::int64_t> used(static_cast<std::size_t>(ep), 0);
    for (double p : pieces) {
        std::size_t best = rank_load.size();
        for (std::size_t r = 0; r < rank_load.size(); ++r)
            if (used[r] < slots && (best == rank_load.size() || rank_load[r] < rank_load[best])) best = r;
        rank_load[best] += p;
        ++used[best];
    }
    return *std::max_element(rank_load.begin(), rank_load.end());
}

std::vector<double> uniform_expert_profile(double tokens, std::int64_t top_k, std::int64_t experts) {
    const double k = static_cast<double>(top_k), E = static_cast<double>(experts);
    const double mu = tokens * k / E, sd = std::sqrt(tokens * (k / E) * (1 - k / E));
    std::vector<double> out;
    for (std::int64_t i = experts; i >= 1; --i)
        out.push_back(std::max(0.0, mu + sd * normal_quantile((static_cast<double>(i) - 0.375) / (E + 0.25))));
    return out;
}

namespace {

// Zipf or histogram routing: the expected per-expert loads set the ranks' loads (no sampling spread
// on top), and the redundant slots go where the planner puts them (expert_routing.hpp).
void skewed_balance(expert_report& r, const scenario& s, double group) {
    const auto& m = s.model.moe;
    const std::int64_t ep = s.parallel.ep;
    const double pairs = group * static_cast<double>(m.top_k);
    std::vector<double> loads = routing_expert_shares(s.training.moe.routing, m.experts, m.top_k, ep);
    for (double& x : loads) x *= pairs;
    const auto ranks = contiguous_rank_loads(loads, ep);
    r.balance.busiest_load = *std::max_element(ranks.begin(), ranks.end());
    r.balance.imbalance = r.balance.busiest_load / r.balance.mean_load;
    r.balance.sigma = 0;
    const redundant_plan plan = plan_redundant_experts(loads, ep, s.training.moe.redundant_experts);
    r.balanced_imbalance = plan.busiest / r.balance.mean_load;
}

}  // namespace

expert_report expert_ledger(const scenario& s, const expert_options& o) {
    expert_report r;
    if (!s.model.is_moe()) return r;
    r.traffic = moe_traffic(s);
    const auto& m = s.model.moe;
    const std::int64_t ep = s.parallel.ep;
    const double group = r.traffic.tokens * static_cast<double>(ep);
    r.balance = uniform_routing_balance(group, m.top_k, m.experts, ep);
    if (o.imbalance > 0) {
        if (o.imbalance < 1)
            throw input_error("expert.imbalance", msg("expert.imbalance_below_one", {{"imbalance", fmt::format("{:g}", o.imbalance)}}));
        r.balance.imbalance = o.imbalance;
        r.balance.busiest_load = o.imbalance * r.balance.mean_load;
    }
    r.balanced_imbalance = r.balance.imbalance;
    if (s.training.moe.routing.kind != "uniform" && ep > 1) {
        skewed_balance(r, s, group);
    } else if (o.redundant_experts > 0 && ep > 1) {
        // The redundant slots are placed for the expected profile (an oracle placement: an upper
        // bound on the benefit); a given imbalance's excess shrinks by the same factor.
        const auto profile = uniform_expert_profile(group, m.top_k, m.experts);
        const double mean = r.balance.mean_load;
        const double uniform_excess = uniform_routing_balance(group, m.top_k, m.experts, ep).busiest_load - mean;
        const double balanced_excess = std::max(0.0, eplb_busiest(profile, ep, o.redundant_experts) - mean);
        const double shrink = uniform_excess > 0 ? std::min(1.0, balanced_excess / uniform_excess) : 1.0;
        r.balanced_imbalance = 1 + (r.balance.imbalance - 1) * shrink;
    }
    r.imbalance_used = r.balanced_imbalance;
    // Padding: with a capacity factor every slot is computed, whatever the routing.
    if (m.capacity_factor > 0) r.imbalance_used = std::max(1.0, r.traffic.computed / r.traffic.routed);
    return r;
}

}  // namespace tslab
