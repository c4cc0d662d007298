// One pass over the ranks (or the first block of the outermost axis), in rank order, that counts
// the nodes each process group spans.
// Ranks are visited in increasing order and node = rank / gpus_per_node is monotone, so a group's
// members on one node arrive consecutively: counting node changes counts the nodes it spans.
#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/mesh.hpp"

namespace tslab {

namespace {

enum axis_id { ax_tp, ax_cp, ax_ep, ax_dp, ax_pp, ax_dpcp, ax_edp, ax_count };

struct group_state {
    std::int64_t last_node = -1, nodes = 0, run = 0, max_run = 0, slot = -1;
};

struct axis_acc {
    axis_groups* out = nullptr;
    std::vector<group_state> groups;
    std::int64_t max_slots = 0;
};

// Key (which group) and coordinate (place in it) of a rank along each axis.
struct key_coord {
    std::int64_t key, coord;
};

key_coord locate(int a, const rank_coords& r, std::int64_t k, const mesh_spec& s, std::int64_t edp) {
    switch (a) {
        case ax_tp: return {r.cp + s.cp * (r.dp + s.dp * r.pp), r.tp};
        case ax_cp: return {r.tp + s.tp * (r.dp + s.dp * r.pp), r.cp};
        case ax_ep: return {r.tp + s.tp * (r.edp + edp * r.pp), r.ep};
        case ax_dp: return {r.tp + s.tp * (r.cp + s.cp * r.pp), r.dp};
        case ax_pp: return {r.tp + s.tp * (r.cp + s.cp * r.dp), r.pp};
        case ax_dpcp: return {r.tp + s.tp * r.pp, k};
        default: return {r.tp + s.tp * (r.ep + s.ep * r.pp), r.edp};
    }
}

void visit(axis_acc& acc, key_coord kc, std::int64_t rank, std::int64_t node) {
    group_state& g = acc.groups[static_cast<std::size_t>(kc.key)];
    if (kc.coord == 0 && acc.out->listed < acc.max_slots) g.slot = acc.out->listed++;
    if (node != g.last_node) {
        g.last_node = node;
        ++g.nodes;
        g.run = 0;
    }
    g.max_run = std::max(g.max_run, ++g.run);
    if (g.slot >= 0) acc.out->listed_ranks[static_cast<std::size_t>(g.slot * acc.out->size + kc.coord)] = rank;
}

link_class classify(std::int64_t size, std::int64_t nodes) {
    if (nodes <= 1) return link_class::intra;
    return nodes == size ? link_class::inter : link_class::mixed;
}

// Groups never visited (nodes 0) lie in blocks the pass skipped; each visited group stands for
// `blocks` groups laid out the same way (see outer_block_of).
void finish(axis_acc& acc, std::int64_t blocks) {
    axis_groups& a = *acc.out;
    a.listed_ranks.resize(static_cast<std::size_t>(a.listed * a.size));
    a.listed_link.assign(static_cast<std::size_t>(a.listed), link_class::intra);
    a.listed_nodes.assign(static_cast<std::size_t>(a.listed), 1);
    for (const auto& g : acc.groups) {
        if (g.nodes == 0) continue;
        const link_class l = classify(a.size, g.nodes);
        (l == link_class::intra ? a.intra : l == link_class::inter ? a.inter : a.mixed) += blocks;
        a.max_nodes = std::max(a.max_nodes, g.nodes);
        a.max_per_node = std::max(a.max_per_node, g.max_run);
        if (g.slot >= 0) {
            a.listed_link[static_cast<std::size_t>(g.slot)] = l;
            a.listed_nodes[static_cast<std::size_t>(g.slot)] = g.nodes;
        }
    }
}

// The outermost dense axis of size > 1, when it is tp or pp and its stride B is a whole number of
// nodes: rank r and r + b·B differ in that axis only and sit b·B / gpus_per_node nodes apart. Every
// group of another axis keeps the outer coordinate (for tp and pp it is part of every other key,
// dp·cp and edp included), so block b = [b·B, (b+1)·B) holds whole groups placed on nodes as in
// block 0, shifted; every group of the outer axis has one member per block, each on its own node.
// A pass over block 0 then gives every count and maximum. Not used when more groups of an axis are
// to be listed than block 0 holds.
struct outer_block {
    int axis = -1;  // ax_tp or ax_pp; -1: visit every rank
    std::int64_t stride = 0, blocks = 1;
};

outer_block outer_block_of(const detail::mesh_geometry& geo, const mesh_spec& s, const std::array<axis_acc, ax_count>& acc) {
    int i = 3;
    while (i > 0 && geo.size[i] == 1) --i;
    const int which = geo.which[i];
    if (geo.size[i] == 1 || (which != 0 && which != 3) || geo.stride[i] % s.gpus_per_node != 0) return {};
    const outer_block b{which == 0 ? ax_tp : ax_pp, geo.stride[i], geo.size[i]};
    for (int a = 0; a < ax_count; ++a) {
        const axis_acc& x = acc[static_cast<std::size_t>(a)];
        if (a != b.axis && x.out->size > 1 && x.max_slots > x.out->count / b.blocks) return {};
    }
    return b;
}

// The outer axis after a pass over block 0: its groups were seen at their first member only.
void finish_outer(axis_acc& acc, const outer_block& b) {
    axis_groups& a = *acc.out;
    a.intra = a.mixed = 0;
    a.inter = a.count;
    a.max_nodes = a.size;
    a.max_per_node = 1;
    for (std::int64_t g = 0; g < a.listed; ++g) {
        const auto gi = static_cast<std::size_t>(g);
        a.listed_link[gi] = link_class::inter;
        a.listed_nodes[gi] = a.size;
        for (std::int64_t j = 1; j < a.size; ++j)
            a.listed_ranks[gi * static_cast<std::size_t>(a.size) + static_cast<std::size_t>(j)] =
                a.listed_ranks[gi * static_cast<std::size_t>(a.size)] + j * b.stride;
    }
}

void init_axis(axis_acc& acc, axis_groups& out, const char* name, std::int64_t size, std::int64_t world, std::int64_t limit) {
    out = axis_groups{};
    out.axis = name;
    out.size = size;
    out.count = world / size;
    acc.out = &out;
    if (size == 1)
        out.intra = out.count;  // singletons: nothing to visit
    else
        acc.groups.assign(static_cast<std::size_t>(out.count), group_state{});
    acc.max_slots = size == 1 ? 0 : std::min(out.count, std::max<std::int64_t>(1, limit / size));
    out.listed_ranks.assign(static_cast<std::size_t>(acc.max_slots * size), 0);
}

void check_spec(const mesh_spec& s) {
    const std::pair<const char*, std::int64_t> degrees[] = {{"dp", s.dp}, {"tp", s.tp}, {"pp", s.pp}, {"ep", s.ep}, {"cp", s.cp}};
    for (const auto& [name, v] : degrees)
        if (v < 1) throw input_error(fmt::format("parallel.{}", name), msg("input.value_at_least_one", {{"value", fmt::format("{}", v)}}));
    if (s.gpus_per_node < 1)
        throw input_error("cluster.gpus_per_node", msg("input.value_at_least_one", {{"value", fmt::format("{}", s.gpus_per_node)}}));
    require_expert_dp_rule(s.ep, s.dp, s.cp, "parallel.ep");
    if (s.nodes > 0 && s.world() != s.nodes * s.gpus_per_node)
        throw input_error("parallel",
                          msg("mesh.world_mismatch",
                              {{"world", fmt::format("{}", s.world())},
                               {"size", fmt::format("{}", s.nodes * s.gpus_per_node)},
                               {"nodes", fmt::format("{}", s.nodes)},
                               {"per_node", fmt::format("{}", s.gpus_per_node)}}));
}

}  // namespace

// Defined in mesh_json.cpp.
std::vector<message> mesh_warnings(const mesh_layout& m);

void validate_mesh_spec(const mesh_spec& s) {
    check_spec(s);
    parse_axis_order(s.order, s, "parallel.order");
}

namespace {

// ep and expert-DP factors of each dp·cp index, tabulated once instead of divided per rank.
struct ep_tables {
    std::vector<std::int64_t> ep_of, edp_of;
};

ep_tables tabulate_ep(const detail::mesh_geometry& geo, const mesh_spec& s) {
    ep_tables t;
    t.ep_of.resize(static_cast<std::size_t>(s.dp * s.cp));
    t.edp_of.resize(t.ep_of.size());
    for (std::int64_t k = 0; k < s.dp * s.cp; ++k) {
        const std::int64_t v[4] = {0, k % s.cp, k / s.cp, 0};  // any (c, d) with this k under cp_inner
        const std::int64_t w[4] = {0, k / s.dp, k % s.dp, 0};
        const rank_coords rc = geo.complete(geo.cp_inner ? v : w);
        t.ep_of[static_cast<std::size_t>(k)] = rc.ep, t.edp_of[static_cast<std::size_t>(k)] = rc.edp;
    }
    return t;
}

// Odometer over the dense digits in order: the first varies fastest, so rank r comes r-th. Visits
// the ranks of block 0 only when an outer axis repeats in whole-node blocks (outer_block_of).
void visit_ranks(const mesh_spec& s, const detail::mesh_geometry& geo, std::array<axis_acc, ax_count>& acc, const std::vector<int>& active,
                 std::int64_t ranks, std::int64_t edp) {
    const ep_tables tab = tabulate_ep(geo, s);
    std::int64_t digit[4] = {0, 0, 0, 0}, tcdp[4] = {0, 0, 0, 0};
    std::int64_t node = 0, in_node = 0;
    for (std::int64_t r = 0; r < ranks; ++r) {
        for (int i = 0; i < 4; ++i) tcdp[geo.which[i]] = digit[i];
        const auto kk = static_cast<std::size_t>(geo.cp_inner ? tcdp[1] + s.cp * tcdp[2] : tcdp[2] + s.dp * tcdp[1]);
        const rank_coords rc{tcdp[0], tcdp[1], tab.ep_of[kk], tcdp[2], tcdp[3], tab.edp_of[kk]};
        const std::int64_t k = rc.ep + s.ep * rc.edp;  // any bijection of the dp·cp index works for grouping
        for (const int a : active) visit(acc[static_cast<std::size_t>(a)], locate(a, rc, k, s, edp), r, node);
        for (int i = 0; i < 4 && ++digit[i] == geo.size[i]; ++i) digit[i] = 0;
        if (++in_node == s.gpus_per_node) in_node = 0, ++node;
    }
}

}  // namespace

mesh_layout build_mesh(const mesh_spec& s, std::int64_t list_limit) {
    check_spec(s);
    mesh_layout m;
    m.spec = s;
    m.world = s.world();
    m.nodes = s.nodes > 0 ? s.nodes : (m.world + s.gpus_per_node - 1) / s.gpus_per_node;
    m.order = parse_axis_order(s.order, s, "parallel.order");
    m.list_limit = list_limit;
    const std::int64_t edp = s.dp * s.cp / s.ep;
    m.axes.resize(5);
    std::array<axis_acc, ax_count> acc;
    const std::int64_t sizes[ax_count] = {s.tp, s.cp, s.ep, s.dp, s.pp, s.dp * s.cp, edp};
    std::vector<int> active;  // axes worth a visit: size > 1, internal groups only where they differ from dp / dp·cp
    for (int a = 0; a < ax_count; ++a) {
        axis_groups& out = a < 5 ? m.axes[static_cast<std::size_t>(a)] : a == ax_dpcp ? m.dp_cp : m.edp;
        const char* name = a < 5 ? (a == ax_tp       ? "tp"
                                        : a == ax_cp ? "cp"
                                        : a == ax_ep ? "ep"
                                        : a == ax_dp ? "dp"
                                                     : "pp")
            : a == ax_dpcp       ? "dp·cp"
                                 : "edp";
        init_axis(acc[static_cast<std::size_t>(a)], out, name, sizes[a], m.world, a < 5 ? list_limit : 0);
        const bool same = (a == ax_dpcp && s.cp == 1) || (a == ax_edp && s.ep == 1);
        if (sizes[a] > 1 && !same) active.push_back(a);
    }
    const detail::mesh_geometry geo(m);
    const outer_block block = outer_block_of(geo, s, acc);
    visit_ranks(s, geo, acc, active, block.axis < 0 ? m.world : block.stride, edp);
    for (auto& a : acc) finish(a, block.blocks);
    if (block.axis >= 0) finish_outer(acc[static_cast<std::size_t>(block.axis)], block);
    if (s.cp == 1) m.dp_cp = m.axes[ax_dp], m.dp_cp.axis = "dp·cp";
    if (s.ep == 1) m.edp = m.dp_cp, m.edp.axis = "edp";
    for (const auto& a : m.axes) m.truncated = m.truncated || (a.size > 1 && a.listed < a.count);
    m.warnings_msg = mesh_warnings(m);
    for (const auto& w : m.warnings_msg) m.warnings.push_back(english(w));
    return m;
}

}  // namespace tslab
