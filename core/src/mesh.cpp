// Device mesh: axis order, rank map and one pass over the ranks that classifies every group.
// Rank layout follows Megatron-Core's RankGenerator (parallel_state.py): the order string lists
// axes innermost first; dense axes tp, cp, dp, pp form a mixed-radix rank; ep is carved out of
// the combined dp·cp index (expert-DP rule), as the fast factor when ep precedes the slower of
// cp and dp in the order (default "tp-cp-ep-dp-pp"), else as the slow factor.
#include "tslab/mesh.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tslab/errors.hpp"

namespace tslab {

const char* to_string(link_class l) {
    switch (l) {
        case link_class::intra: return "intra";
        case link_class::inter: return "inter";
        case link_class::mixed: return "mixed";
    }
    return "?";
}

bool expert_dp_rule_holds(std::int64_t ep, std::int64_t dp, std::int64_t cp) { return (dp * cp) % ep == 0; }

message expert_dp_rule_message(std::int64_t ep, std::int64_t dp, std::int64_t cp) {
    return msg("mesh.expert_dp_rule", {{"ep", fmt::format("{}", ep)}, {"dp_cp", fmt::format("{}", dp * cp)}});
}

void require_expert_dp_rule(std::int64_t ep, std::int64_t dp, std::int64_t cp, const std::string& path) {
    if (!expert_dp_rule_holds(ep, dp, cp)) throw input_error(path, expert_dp_rule_message(ep, dp, cp));
}

namespace {

const std::vector<std::string> axis_names = row_names(mesh_axis_rows);

std::int64_t degree_of(const mesh_spec& s, const std::string& a) {
    if (a == "tp") return s.tp;
    if (a == "cp") return s.cp;
    if (a == "ep") return s.ep;
    if (a == "dp") return s.dp;
    return s.pp;
}

std::size_t position(const std::vector<std::string>& order, const char* a) {
    return static_cast<std::size_t>(std::find(order.begin(), order.end(), a) - order.begin());
}

}  // namespace

std::vector<std::string> parse_axis_order(const std::string& order, const mesh_spec& s, const std::string& path) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= order.size()) {
        const std::size_t dash = std::min(order.find('-', start), order.size());
        const std::string tok = order.substr(start, dash - start);
        if (std::find(axis_names.begin(), axis_names.end(), tok) == axis_names.end()) {
            const std::string near = closest_name(tok, axis_names);
            message_args args{{"axis", tok}, {"order", order}, {"axes", fmt::format("{}", fmt::join(axis_names, ", "))}};
            if (!near.empty()) args.emplace_back("near", near);
            throw input_error(path, msg(near.empty() ? "mesh.unknown_axis" : "mesh.unknown_axis_near", std::move(args)));
        }
        if (std::find(out.begin(), out.end(), tok) != out.end()) throw input_error(path, msg("mesh.axis_twice", {{"axis", tok}, {"order", order}}));
        out.push_back(tok);
        start = dash + 1;
    }
    for (const auto& a : axis_names) {
        if (std::find(out.begin(), out.end(), a) != out.end()) continue;
        if (degree_of(s, a) > 1)
            throw input_error(path, msg("mesh.axis_missing", {{"axis", a}, {"order", order}, {"degree", fmt::format("{}", degree_of(s, a))}}));
        out.push_back(a);  // a size-1 axis: its place does not matter
    }
    return out;
}

const axis_groups& mesh_layout::axis(std::string_view name) const {
    for (const auto& a : axes)
        if (a.axis == name) return a;
    return name == "edp" ? edp : dp_cp;
}

namespace detail {

mesh_geometry::mesh_geometry(const mesh_layout& m) {
    const auto& s = m.spec;
    cp = s.cp, dp = s.dp, ep = s.ep, edp = s.dp * s.cp / s.ep;
    std::size_t i = 0;
    std::int64_t st = 1;
    for (const auto& a : m.order) {
        if (a == "ep") continue;
        which[i] = a == "tp" ? 0 : a == "cp" ? 1 : a == "dp" ? 2 : 3;
        size[i] = degree_of(s, a);
        stride[i] = st;
        st *= size[i++];
    }
    cp_inner = position(m.order, "cp") < position(m.order, "dp");
    ep_inner = position(m.order, "ep") < std::max(position(m.order, "cp"), position(m.order, "dp"));
}

}  // namespace detail

rank_coords coords_of(const mesh_layout& m, std::int64_t rank) {
    const detail::mesh_geometry g(m);
    std::int64_t v[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) v[g.which[i]] = (rank / g.stride[i]) % g.size[i];
    return g.complete(v);
}

}  // namespace tslab
