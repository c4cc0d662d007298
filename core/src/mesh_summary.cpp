// The mesh's per-axis summaries in closed form (mesh.hpp mesh_summary): every axis's groups are
// the ranks b + j·S, j < n, of one mixed-radix digit of stride S and size n, all laid out alike.
#include <optional>

#include "tslab/mesh.hpp"

namespace tslab {

namespace {

struct digit {
    std::int64_t stride = 1, size = 1;
};

// The groups of a digit with node = rank / G: the bases are inner + outer·S·n (inner < S), so a
// block of S·n ranks starts at a multiple of S·n. They sit in one node when that block divides a
// node, one member per node when S is whole nodes, and G/S members per node on S·n/G nodes when S
// divides a node and the block is whole nodes; anything else can differ from group to group.
std::optional<axis_groups> groups_of(const char* name, digit d, std::int64_t world, std::int64_t G) {
    axis_groups a;
    a.axis = name;
    a.size = d.size;
    a.count = world / d.size;
    const std::int64_t S = d.stride, n = d.size;
    if (n == 1 || G % (S * n) == 0)
        a.max_nodes = 1, a.max_per_node = n;
    else if (S % G == 0)
        a.max_nodes = n, a.max_per_node = 1;
    else if (G % S == 0 && (S * n) % G == 0)
        a.max_nodes = S * n / G, a.max_per_node = G / S;
    else
        return std::nullopt;
    (a.max_nodes == 1 ? a.intra : a.max_nodes == n ? a.inter : a.mixed) = a.count;
    return a;
}

// The stride of the dp·cp index k = c + cp·d (cp inner) or d + dp·c, where rank offset is linear in
// k: the two digits adjacent in the order, or one of them of size 1.
std::optional<std::int64_t> k_stride(const detail::mesh_geometry& geo, std::int64_t cp_stride, std::int64_t dp_stride) {
    if (geo.cp == 1) return dp_stride;
    if (geo.dp == 1) return cp_stride;
    if (geo.cp_inner && dp_stride == geo.cp * cp_stride) return cp_stride;
    if (!geo.cp_inner && cp_stride == geo.dp * dp_stride) return dp_stride;
    return std::nullopt;
}

}  // namespace

namespace detail {

std::optional<mesh_layout> mesh_summary_closed_form(const mesh_spec& s) {
    mesh_layout m;
    m.spec = s;
    m.world = s.world();
    m.nodes = s.nodes > 0 ? s.nodes : (m.world + s.gpus_per_node - 1) / s.gpus_per_node;
    m.order = parse_axis_order(s.order, s, "parallel.order");
    const detail::mesh_geometry geo(m);
    digit dense[4];  // tp, cp, dp, pp
    for (int i = 0; i < 4; ++i) dense[geo.which[i]] = {geo.stride[i], geo.size[i]};
    const auto k = k_stride(geo, dense[1].stride, dense[2].stride);
    if (!k) return std::nullopt;
    // ep and edp split k: ep = k mod ep (ep inner) or k / edp.
    const digit ep = geo.ep_inner ? digit{*k, geo.ep} : digit{*k * geo.edp, geo.ep};
    const digit edp = geo.ep_inner ? digit{*k * geo.ep, geo.edp} : digit{*k, geo.edp};
    const std::pair<const char*, digit> axes[] = {
        {"tp", dense[0]}, {"cp", dense[1]}, {"ep", ep}, {"dp", dense[2]}, {"pp", dense[3]}, {"dp·cp", {*k, geo.dp * geo.cp}}, {"edp", edp}};
    std::vector<axis_groups> out;
    for (const auto& [name, d] : axes) {
        auto g = groups_of(name, d, m.world, s.gpus_per_node);
        if (!g) return std::nullopt;
        out.push_back(std::move(*g));
    }
    m.edp = out[6], m.dp_cp = out[5];
    out.resize(5);
    m.axes = std::move(out);
    for (const auto& a : m.axes) m.truncated = m.truncated || a.size > 1;  // nothing listed
    return m;
}

}  // namespace detail

mesh_layout mesh_summary(const mesh_spec& s) {
    validate_mesh_spec(s);
    if (auto m = detail::mesh_summary_closed_form(s)) return std::move(*m);
    return build_mesh(s, 0);
}

}  // namespace tslab
