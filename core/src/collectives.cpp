// Alpha-beta costs of each collective algorithm, and the choice of the fastest.
// Cost of a phase: rounds·α + wire/B, with wire the bytes one rank sends (Thakur, Rabenseifner &
// Gropp 2005, "Optimization of Collective Communication Operations in MPICH", section 4).
#include "tslab/collectives.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <cassert>
#include <initializer_list>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {

const std::array<const char*, 9> algo_names = {"ring",   "recursive_doubling", "recursive_halving", "rabenseifner", "tree", "pairwise", "bruck",
                                               "direct", "hierarchical"};
// A two-level schedule's name by its inter-node algorithm, made once from algo_names (a name then
// costs no allocation when a search estimates millions of collectives).
const std::array<std::string, std::tuple_size_v<decltype(algo_names)>> hierarchical_names = [] {
    std::array<std::string, std::tuple_size_v<decltype(algo_names)>> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = fmt::format("hierarchical({})", algo_names[i]);
    return out;
}();

struct cost {
    std::int64_t rounds = 0;
    double wire = 0, alpha = 0, beta = 0;
    std::optional<collective_algorithm> inner;  // the inter-node algorithm of a hierarchical schedule
};

cost operator+(cost a, const cost& b) {
    a.rounds += b.rounds, a.wire += b.wire, a.alpha += b.alpha, a.beta += b.beta;
    if (!a.inner) a.inner = b.inner;
    return a;
}

cost phase(std::int64_t rounds, double wire, const link_spec& l) {
    return {rounds, wire, static_cast<double>(rounds) * l.latency_s, wire / l.bandwidth_Bps, {}};
}

std::int64_t floor_log2(std::int64_t n) {
    std::int64_t k = 0;
    while ((std::int64_t{1} << (k + 1)) <= n) ++k;
    return k;
}
std::int64_t ceil_log2(std::int64_t n) { return floor_log2(n) + ((n & (n - 1)) ? 1 : 0); }
bool pow2(std::int64_t n) { return (n & (n - 1)) == 0; }
double share(std::int64_t n) { return static_cast<double>(n - 1) / static_cast<double>(n); }

using algo = collective_algorithm;
struct candidate {
    algo a;
    cost c;
};

// At most 4 algorithms apply to one op and group (MPICH AllReduce: 3 flat + 1 two-level), so a
// fixed buffer with room to spare holds them: a search estimates millions of collectives.
class candidate_list {
public:
    candidate_list() = default;
    candidate_list(std::initializer_list<candidate> cs) {
        for (const auto& c : cs) push_back(c);
    }
    void push_back(const candidate& c) {
        assert(n_ < v_.size());
        v_[n_++] = c;
    }
    const candidate* begin() const { return v_.data(); }
    const candidate* end() const { return v_.data() + n_; }

private:
    std::array<candidate, 6> v_{};
    std::size_t n_ = 0;
};

// Flat AllReduce on one link. MPICH's set (Thakur et al. 2005): ring, recursive doubling and
// Rabenseifner; non-powers of two fold the extra ranks into a partner before and after (2 more
// rounds, S more on the wire, section 4.4). NCCL's set (NCCL_ALGO: Ring, Tree; its docs): the ring,
// and the pipelined double binary tree, S up and S down with 2⌈log2 n⌉ latency steps.
candidate_list flat_allreduce(std::int64_t n, double S, const link_spec& l, collective_library lib) {
    if (lib == collective_library::nccl)
        return {{algo::ring, phase(2 * (n - 1), 2 * share(n) * S, l)}, {algo::tree, phase(2 * ceil_log2(n), 2 * S, l)}};
    const std::int64_t p2 = std::int64_t{1} << floor_log2(n), lg = floor_log2(n);
    const std::int64_t extra = pow2(n) ? 0 : 2;
    const double extra_wire = pow2(n) ? 0 : S;
    return {{algo::ring, phase(2 * (n - 1), 2 * share(n) * S, l)},
            {algo::recursive_doubling, phase(lg + extra, static_cast<double>(lg) * S + extra_wire, l)},
            {algo::rabenseifner, phase(2 * lg + extra, 2 * share(p2) * S + extra_wire, l)}};
}

// ReduceScatter / AllGather: ring, or (MPICH) recursive halving / doubling for powers of two; NCCL
// runs these as rings only.
candidate_list flat_scatter_gather(collective_op op, std::int64_t n, double S, const link_spec& l, collective_library lib) {
    candidate_list out = {{algo::ring, phase(n - 1, share(n) * S, l)}};
    if (pow2(n) && lib == collective_library::mpich)
        out.push_back(
            {op == collective_op::reducescatter ? algo::recursive_halving : algo::recursive_doubling, phase(floor_log2(n), share(n) * S, l)});
    return out;
}

template <class Fn>
candidate best_of(const candidate_list& cs, Fn&& time) {
    return *std::min_element(cs.begin(), cs.end(), [&](const candidate& a, const candidate& b) { return time(a.c) < time(b.c); });
}

double total(const cost& c) { return c.alpha + c.beta; }

// Two-level schedule for a group of m nodes × g ranks: the NVLink phase moves S, the NIC phase S/g.
// NCCL's multi-channel ring behaves so in bandwidth (each channel's ring crosses the node through
// its own NIC), with its own inter-node algorithm set.
candidate_list hierarchical(collective_op op, const group_topology& g, double S, const comm_links& l, collective_library lib) {
    const std::int64_t m = g.nodes, k = g.per_node;
    if (m < 2 || k < 2 || g.link() != link_class::mixed) return {};
    const cost intra = phase(k - 1, share(k) * S, l.intra);  // ring ReduceScatter or AllGather inside a node
    const double shard = S / static_cast<double>(k);
    auto named = [](candidate c) {
        c.c.inner = c.a;
        return c.c;
    };
    if (op == collective_op::allreduce) {
        const cost inter = named(best_of(flat_allreduce(m, shard, l.inter, lib), total));
        return {{algo::hierarchical, intra + inter + intra}};
    }
    if (op == collective_op::reducescatter || op == collective_op::allgather) {
        const cost inter = named(best_of(flat_scatter_gather(op, m, shard, l.inter, lib), total));
        return {{algo::hierarchical, intra + inter}};
    }
    return {};
}

// Pairwise All-to-All with `nic` bytes leaving the node and `nvl` bytes staying on NVLink per rank:
// n−1 rounds at the slowest hop's latency; the two links run concurrently, so the slower share binds.
cost pairwise_cost(const group_topology& g, double nic, double nvl, const comm_links& l) {
    const link_spec& slow = g.nodes > 1 ? l.inter : l.intra;
    return {g.ranks - 1,
            nic + nvl,
            static_cast<double>(g.ranks - 1) * slow.latency_s,
            std::max(nic / l.inter.bandwidth_Bps, nvl / l.intra.bandwidth_Bps),
            {}};
}

// All-to-All: of the S bytes a rank sends, (m−1)/m go to other nodes over the NIC and (g−1)/n stay
// on NVLink (pairwise_cost). NCCL issues it as grouped point-to-point sends (pairwise); MPICH may
// also pick Bruck.
candidate_list alltoall(const group_topology& g, double S, const comm_links& l, collective_library lib) {
    const std::int64_t n = g.ranks, m = g.nodes, k = g.per_node;
    const link_spec& slow = m > 1 ? l.inter : l.intra;
    const double nic = m > 1 ? share(m) * S : 0.0;
    const double nvl = static_cast<double>(k - 1) / static_cast<double>(n) * S;
    cost pw = pairwise_cost(g, nic, nvl, l);
    pw.wire = share(n) * S;
    if (lib == collective_library::nccl) return {{algo::pairwise, pw}};
    // Bruck: ⌈log2 n⌉ rounds of S/2 each, all on the slowest link (Bruck et al. 1997).
    const std::int64_t lg = ceil_log2(n);
    return {{algo::pairwise, pw}, {algo::bruck, phase(lg, static_cast<double>(lg) * S / 2, slow)}};
}

candidate_list candidates(collective_op op, const group_topology& g, double S, const comm_links& l, collective_library lib) {
    const std::int64_t n = g.ranks;
    const link_class c = g.link();
    const link_spec& flat = c == link_class::intra ? l.intra : l.inter;  // flat schedules wait on the slowest hop
    candidate_list out;
    switch (op) {
        case collective_op::allreduce: out = flat_allreduce(n, S, flat, lib); break;
        case collective_op::reducescatter:
        case collective_op::allgather: out = flat_scatter_gather(op, n, S, flat, lib); break;
        case collective_op::alltoall: return alltoall(g, S, l, lib);
        case collective_op::broadcast:
        case collective_op::reduce:
            // Pipelined chain (NCCL ring): n−1 hops of latency, S once on each link; MPICH also a binomial tree.
            out = {{algo::ring, phase(n - 1, S, flat)}};
            if (lib == collective_library::mpich) out.push_back({algo::tree, phase(ceil_log2(n), static_cast<double>(ceil_log2(n)) * S, flat)});
            break;
        case collective_op::sendrecv: out = {{algo::direct, phase(1, S, flat)}}; break;
    }
    for (const auto& h : hierarchical(op, g, S, l, lib)) out.push_back(h);
    return out;
}

collective_estimate finish(collective_op op, const group_topology& g, double S, const candidate& c) {
    collective_estimate e;
    e.op = op;
    e.algorithm = c.a;
    // Both views of static strings (a std::string common type would leave the view dangling).
    e.algorithm_name = c.c.inner ? std::string_view(hierarchical_names[static_cast<std::size_t>(*c.c.inner)]) : std::string_view(to_string(c.a));
    e.ranks = g.ranks;
    e.bytes = S;
    e.wire_bytes = c.c.wire;
    e.rounds = c.c.rounds;
    e.link = g.link();
    e.alpha_s = c.c.alpha;
    e.beta_s = c.c.beta;
    e.time_s = c.c.alpha + c.c.beta;
    e.algbw_Bps = e.time_s > 0 ? S / e.time_s : 0;
    e.busbw_Bps = e.algbw_Bps * describe(op).busbw_factor(static_cast<double>(g.ranks));
    return e;
}

void check_inputs(double S, const group_topology& g, const comm_links& l) {
    if (!(S > 0)) throw input_error("bytes", msg("collective.value_not_positive", {{"value", num_text(S)}}));
    if (g.ranks < 2) throw input_error("ranks", msg("collective.ranks_below_two", {{"ranks", num_text(g.ranks)}}));
    if (g.nodes < 1 || g.per_node < 1 || g.nodes * g.per_node < g.ranks)
        throw input_error(
            "ranks_per_node",
            msg("collective.nodes_cannot_hold", {{"nodes", num_text(g.nodes)}, {"per_node", num_text(g.per_node)}, {"ranks", num_text(g.ranks)}}));
    const std::pair<const char*, const link_spec*> links[] = {{"link.intra_node", &l.intra}, {"link.inter_node", &l.inter}};
    for (const auto& [path, link] : links) {
        if (!(link->bandwidth_Bps > 0))
            throw input_error(path, msg("collective.link_bandwidth_not_positive", {{"value", num_text(link->bandwidth_Bps)}}));
        if (!(link->latency_s >= 0)) throw input_error(path, msg("collective.link_latency_negative", {{"value", num_text(link->latency_s)}}));
    }
}

}  // namespace

const char* to_string(collective_algorithm a) { return algo_names[static_cast<std::size_t>(a)]; }

const char* to_string(collective_library l) { return l == collective_library::nccl ? "nccl" : "mpich"; }

std::optional<collective_library> library_from_name(std::string_view name) {
    if (name == "nccl") return collective_library::nccl;
    if (name == "mpich") return collective_library::mpich;
    return std::nullopt;
}

std::optional<collective_algorithm> algorithm_from_name(std::string_view name) {
    for (std::size_t i = 0; i < algo_names.size(); ++i)
        if (name == algo_names[i]) return static_cast<collective_algorithm>(i);
    return std::nullopt;
}

std::vector<std::string> algorithm_names() { return {algo_names.begin(), algo_names.end()}; }

group_topology group_topology::flat(std::int64_t n, link_class l) {
    return l == link_class::intra ? group_topology{n, 1, n} : group_topology{n, n, 1};
}

std::vector<collective_estimate> collective_candidates(collective_op op, double bytes, const group_topology& g, const comm_links& l,
                                                       collective_library lib) {
    check_inputs(bytes, g, l);
    std::vector<collective_estimate> out;
    for (const auto& c : candidates(op, g, bytes, l, lib)) out.push_back(finish(op, g, bytes, c));
    return out;
}

namespace {

// Everything estimate_collective reads, as bits: equal keys give the same estimate, bit for bit.
using memo_key = std::array<std::uint64_t, 9>;

memo_key memo_key_of(collective_op op, double bytes, const group_topology& g, const comm_links& l, std::optional<collective_algorithm> forced,
                     collective_library lib) {
    const auto bits = [](double d) {  // std::bit_cast, which the wasm toolchain's libc++ lacks
        std::uint64_t u = 0;
        std::memcpy(&u, &d, sizeof u);
        return u;
    };
    const auto u = [](auto v) { return static_cast<std::uint64_t>(v); };
    const std::uint64_t kind = u(op) | u(lib) << 8 | (forced ? u(*forced) + 1 : 0) << 16;
    return {kind,
            u(g.ranks),
            u(g.nodes),
            u(g.per_node),
            bits(bytes),
            bits(l.intra.bandwidth_Bps),
            bits(l.intra.latency_s),
            bits(l.inter.bandwidth_Bps),
            bits(l.inter.latency_s)};
}

// The planner asks for the same few collectives (a layout's groups at the same message sizes) for
// thousands of plans: a small direct-mapped memo per thread answers a repeat without listing and
// timing every algorithm again. Only estimates that were made are stored (a throw stores nothing).
struct collective_memo {
    static constexpr std::size_t slots = 256;
    std::array<memo_key, slots> keys{};
    std::array<collective_estimate, slots> values{};
    std::array<bool, slots> used{};
    static std::size_t slot_of(const memo_key& k) {
        std::uint64_t h = 0;
        for (const std::uint64_t v : k) h = (h ^ v) * 0x9E3779B97F4A7C15ull;
        return static_cast<std::size_t>(h >> 56) % slots;
    }
};

thread_local collective_memo memo;

collective_estimate estimate_once(collective_op op, double bytes, const group_topology& g, const comm_links& l,
                                  std::optional<collective_algorithm> forced, collective_library lib);

}  // namespace

collective_estimate estimate_collective(collective_op op, double bytes, const group_topology& g, const comm_links& l,
                                        std::optional<collective_algorithm> forced, collective_library lib) {
    const memo_key k = memo_key_of(op, bytes, g, l, forced, lib);
    const std::size_t i = collective_memo::slot_of(k);
    if (memo.used[i] && memo.keys[i] == k) return memo.values[i];
    collective_estimate e = estimate_once(op, bytes, g, l, forced, lib);
    memo.keys[i] = k, memo.values[i] = e, memo.used[i] = true;
    return e;
}

namespace {

collective_estimate estimate_once(collective_op op, double bytes, const group_topology& g, const comm_links& l,
                                  std::optional<collective_algorithm> forced, collective_library lib) {
    check_inputs(bytes, g, l);
    const auto cs = candidates(op, g, bytes, l, lib);
    if (!forced) return finish(op, g, bytes, best_of(cs, total));
    for (const auto& c : cs)
        if (c.a == *forced) return finish(op, g, bytes, c);
    std::string list;
    for (const auto& c : cs) list += (list.empty() ? "" : ", ") + std::string(to_string(c.a));
    throw input_error("algorithm",
                      msg("collective.algorithm_not_applicable",
                          {{"algorithm", to_string(*forced)},
                           {"op", describe(op).name},
                           {"ranks", num_text(g.ranks)},
                           {"link", to_string(g.link())},
                           {"library", to_string(lib)},
                           {"choices", list}}));
}

}  // namespace

collective_estimate estimate_alltoall_split(double bytes, double network_bytes, double nvlink_bytes, const group_topology& g, const comm_links& l) {
    check_inputs(bytes, g, l);
    // NVLink may carry more than `bytes`: node-limited routing forwards inside the node what arrived once over the network.
    if (!(network_bytes >= 0) || !(nvlink_bytes >= 0))
        throw input_error(
            "bytes",
            msg("collective.split_bytes_negative", {{"network", fmt::format("{:g}", network_bytes)}, {"nvlink", fmt::format("{:g}", nvlink_bytes)}}));
    return finish(collective_op::alltoall, g, bytes, {algo::pairwise, pairwise_cost(g, network_bytes, nvlink_bytes, l)});
}

}  // namespace tslab
