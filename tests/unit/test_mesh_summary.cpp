// The planner's mesh summary (mesh.hpp mesh_summary) against the full pass over the ranks
// (build_mesh): every field the communication reads (not the listed groups, which it omits), for every layout of several worlds, node
// sizes and axis orders, the closed forms and the fallback alike.
#include <catch2/catch.hpp>

#include <string>

#include "tslab/mesh.hpp"

using namespace tslab;

namespace {

void same_axis(const axis_groups& a, const axis_groups& b) {
    INFO("axis " << b.axis);
    CHECK(a.axis == b.axis);
    CHECK(a.size == b.size);
    CHECK(a.count == b.count);
    CHECK(a.intra == b.intra);
    CHECK(a.inter == b.inter);
    CHECK(a.mixed == b.mixed);
    CHECK(a.max_nodes == b.max_nodes);
    CHECK(a.max_per_node == b.max_per_node);
    CHECK(a.binding() == b.binding());
}

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t d = 1; d <= n; ++d)
        if (n % d == 0) out.push_back(d);
    return out;
}

// Every (tp, pp, cp, dp, ep) of `world` with ep dividing dp·cp; returns how many took each path.
std::pair<int, int> compare_all(std::int64_t world, std::int64_t per_node, const std::string& order) {
    int closed = 0, fallback = 0;
    for (std::int64_t tp : divisors(world))
        for (std::int64_t pp : divisors(world / tp))
            for (std::int64_t cp : divisors(world / (tp * pp)))
                for (std::int64_t ep : divisors(world / (tp * pp))) {
                    const std::int64_t dp = world / (tp * pp * cp);
                    if ((dp * cp) % ep != 0) continue;
                    mesh_spec s;
                    s.tp = tp, s.pp = pp, s.cp = cp, s.dp = dp, s.ep = ep, s.gpus_per_node = per_node, s.order = order;
                    INFO("world " << world << " per node " << per_node << " order " << order << " tp " << tp << " pp " << pp << " cp " << cp << " dp "
                                  << dp << " ep " << ep);
                    const auto closed_form = detail::mesh_summary_closed_form(s);
                    const mesh_layout full = build_mesh(s, 0), fast = mesh_summary(s);
                    CHECK(fast.world == full.world);
                    CHECK(fast.nodes == full.nodes);
                    CHECK(fast.order == full.order);
                    REQUIRE(fast.axes.size() == full.axes.size());
                    bool grouped = false;
                    for (std::size_t i = 0; i < full.axes.size(); ++i) {
                        same_axis(fast.axes[i], full.axes[i]);
                        if (closed_form) CHECK(fast.axes[i].listed == 0);  // the summary lists no group
                        grouped = grouped || full.axes[i].size > 1;
                    }
                    CHECK(fast.truncated == (closed_form ? grouped : full.truncated));
                    same_axis(fast.dp_cp, full.dp_cp);
                    same_axis(fast.edp, full.edp);
                    (closed_form ? closed : fallback) += 1;
                    if (closed_form) CHECK(closed_form->axes.size() == fast.axes.size());
                }
    return {closed, fallback};
}

}  // namespace

TEST_CASE("mesh summary: the closed forms give build_mesh's counts, classes and spans for every layout") {
    int closed = 0, any = 0;
    for (const std::int64_t world : {8, 12, 16, 24, 48, 64, 96, 256})
        for (const std::int64_t per_node : {4, 8})
            for (const char* order : {"tp-cp-ep-dp-pp", "tp-dp-cp-ep-pp", "cp-tp-ep-dp-pp", "tp-pp-ep-dp-cp", "pp-dp-ep-cp-tp"}) {
                if (world % per_node != 0) continue;
                const auto [c, f] = compare_all(world, per_node, order);
                closed += c, any += c + f;
            }
    // Most layouts take the closed forms (the rest fall back to the pass over the ranks).
    CHECK(closed > any / 2);
    // Powers of two always do, in every order.
    for (const std::int64_t world : {64, 4096})
        for (const char* order : {"tp-cp-ep-dp-pp", "pp-dp-ep-cp-tp"}) {
            const auto [c, f] = compare_all(world, 8, order);
            CHECK(c > 0);
            CHECK(f == 0);
        }
}

TEST_CASE("mesh summary: bad specs fail as build_mesh fails") {
    mesh_spec s;
    s.dp = 4, s.ep = 3;
    CHECK_THROWS_WITH(mesh_summary(s), Catch::Contains("parallel.ep"));
    s.ep = 1, s.order = "tp-tp-dp";
    CHECK_THROWS_WITH(mesh_summary(s), Catch::Contains("parallel.order"));
}
