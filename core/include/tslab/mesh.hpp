// The device mesh: global ranks -> coordinates along tp, cp, ep, dp, pp, laid onto nodes,
// with every axis' process groups and the link class each group uses (ledger L5).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tslab/json_fields.hpp"
#include "tslab/json_writer.hpp"
#include "tslab/messages.hpp"
#include "tslab/vocabulary.hpp"

namespace tslab {

enum class link_class { intra, inter, mixed };
const char* to_string(link_class l);

// What the mesh needs: degrees, axis order (innermost first), node size, and the few model
// facts the warnings look at.
struct mesh_spec {
    std::int64_t dp = 1, tp = 1, pp = 1, ep = 1, cp = 1;
    std::string order = recommended_order;  // Megatron-Core default; first axis varies fastest
    std::int64_t gpus_per_node = 8;
    std::int64_t nodes = 0;  // 0: as many as the plan needs
    bool sp = false;
    cp_method_kind cp_method = cp_method_kind::ring;
    std::int64_t heads = 0;  // 0: unknown (no Ulysses head check)
    std::int64_t world() const { return dp * tp * pp * cp; }
};

// One rank's coordinates. dp is the dense data-parallel index; ep and edp split the combined
// dp·cp index (expert-DP rule, see require_expert_dp_rule).
struct rank_coords {
    std::int64_t tp = 0, cp = 0, ep = 0, dp = 0, pp = 0, edp = 0;
};

// All process groups of one axis, summarised over every group, and the first ones listed.
struct axis_groups {
    std::string axis;  // tp, cp, ep, dp, pp; internal: "dp·cp" (gradient reduction), "edp" (expert DP)
    std::int64_t size = 1, count = 0;
    std::int64_t intra = 0, inter = 0, mixed = 0;  // groups of each link class
    std::int64_t max_nodes = 1;  // the most nodes one group spans
    std::int64_t max_per_node = 1;  // the most members of one group on one node
    std::int64_t listed = 0;  // groups listed (the first by lowest rank, capped)
    std::vector<std::int64_t> listed_ranks;  // group i's members at [i·size, (i+1)·size)
    std::vector<link_class> listed_link;
    std::vector<std::int64_t> listed_nodes;
    std::span<const std::int64_t> group(std::int64_t i) const { return {listed_ranks.data() + i * size, static_cast<std::size_t>(size)}; }
    // The class that binds the timing: mixed if any group is mixed, else inter if any is.
    link_class binding() const { return mixed > 0 ? link_class::mixed : inter > 0 ? link_class::inter : link_class::intra; }
};

struct mesh_layout {
    mesh_spec spec;
    std::int64_t world = 1, nodes = 1;
    std::vector<std::string> order;  // all five axes, innermost first (missing size-1 axes appended)
    std::vector<axis_groups> axes;  // tp, cp, ep, dp, pp (this order)
    axis_groups dp_cp, edp;  // gradient-reduction groups of dense and expert parameters
    std::int64_t list_limit = 0;  // most ranks listed per axis
    bool truncated = false;  // some groups were not listed
    std::vector<message> warnings_msg;  // messages.hpp
    std::vector<std::string> warnings;  // their English text
    const axis_groups& axis(std::string_view name) const;
};

// Most ranks listed per axis in JSON: enough for any lab-sized mesh, short for 4096+ GPUs.
inline constexpr std::int64_t default_list_limit = 1024;

// The one home of the expert-DP rule (Megatron-Core MoE): experts are replicated over dp·cp/ep
// groups, so ep must divide dp·cp. Throws input_error at `path` naming the rule.
bool expert_dp_rule_holds(std::int64_t ep, std::int64_t dp, std::int64_t cp);
message expert_dp_rule_message(std::int64_t ep, std::int64_t dp, std::int64_t cp);  // why the rule fails
void require_expert_dp_rule(std::int64_t ep, std::int64_t dp, std::int64_t cp, const std::string& path);

// The five axes in order, innermost first. Each axis at most once; an axis may be left out only
// when its degree is 1 (it is appended outermost). Errors name `path`.
std::vector<std::string> parse_axis_order(const std::string& order, const mesh_spec& s, const std::string& path);

// The input_errors build_mesh would throw for `s` (degrees, expert-DP rule, world size, axis
// order), without laying out any rank: the planner checks every layout, builds few meshes.
void validate_mesh_spec(const mesh_spec& s);

// Build the mesh: validate, enumerate every group in one pass over the ranks, add warnings.
mesh_layout build_mesh(const mesh_spec& s, std::int64_t list_limit = default_list_limit);

// What a plan's communication reads of the mesh (each axis's size, group count, link classes,
// most nodes and most members per node; no group listed, no warnings), without visiting ranks
// where every axis's groups are arithmetic progressions of ranks that meet node boundaries evenly
// (layouts of powers of two always do), else build_mesh(s, 0). Validates as build_mesh does.
mesh_layout mesh_summary(const mesh_spec& s);
namespace detail {
std::optional<mesh_layout> mesh_summary_closed_form(const mesh_spec& s);  // nullopt: mesh_summary falls back
}  // namespace detail

// Coordinates of one global rank (the rank map), from the layout's order.
rank_coords coords_of(const mesh_layout& m, std::int64_t rank);

void write_mesh(json_writer& w, const mesh_layout& m);
json mesh_to_json(const mesh_layout& m);  // the same, parsed back into a tree
// The lab's mesh-only query: {dp, tp, pp, ep, cp, order?, gpus_per_node?, nodes?, sp?, cp_method?,
// heads?, list_limit?} -> mesh JSON text.
std::string mesh_json_text(const std::string& spec_text);

namespace detail {
// Mixed-radix geometry of a layout: the dense digits (tp, cp, dp, pp) in order with strides, and
// how ep and edp split the combined dp·cp index k.
struct mesh_geometry {
    std::int64_t size[4] = {1, 1, 1, 1}, stride[4] = {1, 1, 1, 1};
    int which[4] = {0, 1, 2, 3};  // 0 tp, 1 cp, 2 dp, 3 pp
    bool cp_inner = true, ep_inner = true;
    std::int64_t cp = 1, dp = 1, ep = 1, edp = 1;
    explicit mesh_geometry(const mesh_layout& m);
    // v = {t, c, d, p}.
    rank_coords complete(const std::int64_t v[4]) const {
        const std::int64_t k = cp_inner ? v[1] + cp * v[2] : v[2] + dp * v[1];
        return rank_coords{v[0], v[1], ep_inner ? k % ep : k / edp, v[2], v[3], ep_inner ? k / ep : k % edp};
    }
};
}  // namespace detail

}  // namespace tslab
