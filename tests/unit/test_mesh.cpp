// Device mesh: rank maps for three axis orders, group link classes, warnings, caps and bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "tslab/errors.hpp"
#include "tslab/mesh.hpp"

using namespace tslab;
using Catch::Matchers::Contains;

namespace {
mesh_spec spec(std::int64_t tp, std::int64_t cp, std::int64_t ep, std::int64_t dp, std::int64_t pp, const char* order, std::int64_t gpn = 8) {
    mesh_spec s;
    s.tp = tp, s.cp = cp, s.ep = ep, s.dp = dp, s.pp = pp, s.order = order, s.gpus_per_node = gpn;
    return s;
}
std::string error_of(const mesh_spec& s) {
    try {
        build_mesh(s);
    } catch (const input_error& e) {
        return e.what();
    }
    return "no error";
}
std::vector<std::int64_t> first_group(const mesh_layout& m, const char* axis) {
    const auto g = m.axis(axis).group(0);
    return {g.begin(), g.end()};
}
}  // namespace

TEST_CASE("rank map, Megatron default order tp-cp-ep-dp-pp (tp 2, dp 2, pp 2)") {
    // Worked by hand: tp varies fastest, then dp, then pp.
    const std::int64_t table[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};  // tp, dp, pp
    const auto m = build_mesh(spec(2, 1, 1, 2, 2, "tp-cp-ep-dp-pp"));
    for (std::int64_t r = 0; r < 8; ++r) {
        const auto c = coords_of(m, r);
        CHECK(table[r][0] == c.tp);
        CHECK(table[r][1] == c.dp);
        CHECK(table[r][2] == c.pp);
    }
    CHECK(std::vector<std::int64_t>{0, 2} == first_group(m, "dp"));
    CHECK(std::vector<std::int64_t>{0, 4} == first_group(m, "pp"));
}

TEST_CASE("rank map, order pp-dp-tp (pp fastest)") {
    const std::int64_t table[8][3] = {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 0, 0}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}};  // tp, dp, pp
    const auto m = build_mesh(spec(2, 1, 1, 2, 2, "pp-dp-tp"));
    for (std::int64_t r = 0; r < 8; ++r) {
        const auto c = coords_of(m, r);
        CHECK(table[r][0] == c.tp);
        CHECK(table[r][1] == c.dp);
        CHECK(table[r][2] == c.pp);
    }
    CHECK(std::vector<std::int64_t>{0, 4} == first_group(m, "tp"));
    CHECK(m.order == std::vector<std::string>{"pp", "dp", "tp", "cp", "ep"});  // size-1 axes appended
}

TEST_CASE("rank map with cp and ep: ep is the fast factor of dp·cp in tp-cp-ep-dp-pp") {
    // tp 2, cp 2, dp 2, ep 2: k = cp + 2·dp; ep = k mod 2 = cp, expert-DP = k / 2 = dp.
    const std::int64_t table[8][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 1}, {1, 1, 0, 1},
                                      {0, 0, 1, 0}, {1, 0, 1, 0}, {0, 1, 1, 1}, {1, 1, 1, 1}};  // tp, cp, dp, ep
    const auto m = build_mesh(spec(2, 2, 2, 2, 1, "tp-cp-ep-dp-pp"));
    for (std::int64_t r = 0; r < 8; ++r) {
        const auto c = coords_of(m, r);
        CHECK(table[r][0] == c.tp);
        CHECK(table[r][1] == c.cp);
        CHECK(table[r][2] == c.dp);
        CHECK(table[r][3] == c.ep);
    }
    CHECK(std::vector<std::int64_t>{0, 2} == first_group(m, "ep"));
    // ep after dp: the slow factor, ep = k / 2 = dp.
    const auto slow = build_mesh(spec(2, 2, 2, 2, 1, "tp-cp-dp-ep-pp"));
    CHECK(std::vector<std::int64_t>{0, 4} == first_group(slow, "ep"));
}

TEST_CASE("link classes of groups") {
    // 4 nodes × 8: tp 8 fills a node; dp 4 strides by 8, one member per node.
    const auto m = build_mesh(spec(8, 1, 1, 4, 1, "tp-cp-ep-dp-pp"));
    CHECK(m.axis("tp").intra == 4);
    CHECK(m.axis("tp").binding() == link_class::intra);
    CHECK(m.axis("dp").inter == 8);
    CHECK(m.axis("dp").binding() == link_class::inter);
    CHECK(m.warnings.empty());
    // dp 16 with tp 1: groups of 16 over 2 nodes of 8: mixed.
    const auto d = build_mesh(spec(1, 1, 1, 16, 1, "tp-cp-ep-dp-pp"));
    CHECK(d.axis("dp").mixed == 1);
    CHECK(d.axis("dp").max_nodes == 2);
    CHECK(d.axis("dp").max_per_node == 8);
}

TEST_CASE("warnings fire when they should") {
    const auto tp16 = build_mesh(spec(16, 1, 1, 1, 1, "tp-cp-ep-dp-pp"));
    CHECK(tp16.warnings == std::vector<std::string>{"tp group of 16 spans 2 nodes: its per-layer AllReduce crosses the NIC"});
    const auto ep = build_mesh(spec(1, 1, 64, 64, 1, "tp-cp-ep-dp-pp"));
    REQUIRE(ep.warnings.size() == 1);
    CHECK(ep.warnings[0] == "ep group spans 8 nodes: All-to-All is NIC-bound");
    auto u = spec(1, 8, 1, 1, 1, "tp-cp-ep-dp-pp");
    u.cp_method = cp_method_kind::ulysses, u.heads = 12;
    CHECK_THAT(build_mesh(u).warnings.at(0), Contains("cp with Ulysses needs heads divisible by cp"));
    // The deliberately conflicting mapping: dp fastest puts each tp group of 8 across 2 nodes.
    const auto bad = build_mesh(spec(8, 1, 1, 2, 1, "dp-tp-cp-ep-pp"));
    CHECK(bad.axis("tp").mixed == 2);
    CHECK(bad.warnings.at(0) == "tp group of 8 spans 2 nodes: its per-layer AllReduce crosses the NIC");
}

TEST_CASE("warnings stay quiet otherwise") {
    CHECK(build_mesh(spec(8, 1, 1, 2, 1, "tp-cp-ep-dp-pp")).warnings.empty());
    CHECK(build_mesh(spec(1, 1, 8, 16, 1, "tp-cp-ep-dp-pp")).warnings.empty());  // ep 8 inside a node
    auto u = spec(1, 8, 1, 1, 1, "tp-cp-ep-dp-pp");
    u.cp_method = cp_method_kind::ulysses, u.heads = 16;
    CHECK(build_mesh(u).warnings.empty());
}

TEST_CASE("huge worlds list a capped number of groups and say so") {
    const auto m = build_mesh(spec(8, 1, 1, 1024, 1, "tp-cp-ep-dp-pp"));
    CHECK(m.world == 8192);
    CHECK(m.axis("tp").count == 1024);
    CHECK(m.axis("tp").listed == 128);  // 1024 ranks / 8 per group
    CHECK(m.axis("dp").listed == 1);  // one group of 1024
    CHECK(m.axis("dp").inter == 8);
    CHECK(m.truncated);
    CHECK_THAT(mesh_to_json(m)["note"].get<std::string>(), Contains("at most 1024 ranks per axis"));
}

TEST_CASE("bad mesh input gives clear errors") {
    CHECK_THAT(error_of(spec(2, 1, 1, 2, 1, "tq-dp")), Contains("parallel.order: unknown axis \"tq\"") && Contains("did you mean tp?"));
    CHECK_THAT(error_of(spec(2, 1, 1, 2, 1, "tp-dp-tp")), Contains("axis tp appears twice"));
    CHECK_THAT(error_of(spec(2, 1, 1, 2, 2, "tp-dp")), Contains("axis pp is missing from \"tp-dp\" but pp = 2"));
    CHECK_THAT(error_of(spec(1, 1, 3, 4, 1, "tp-cp-ep-dp-pp")), Contains("parallel.ep: 3 does not divide dp·cp = 4 (expert-DP rule"));
    auto s = spec(2, 1, 1, 2, 1, "tp-cp-ep-dp-pp");
    s.nodes = 2;
    CHECK_THAT(error_of(s), Contains("dp·tp·pp·cp = 4 ≠ world size 16"));
    CHECK_THAT(error_of(spec(0, 1, 1, 2, 1, "tp-cp-ep-dp-pp")), Contains("parallel.tp: 0 must be at least 1"));
    try {
        mesh_json_text(R"({"dp": 2, "tp": 0})");
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK_THAT(std::string(e.what()), Contains("tp: 0 is out of range"));
    }
}

namespace {
// Naive group statistics from coords_of: members of one group share every coordinate but the
// axis's own (ep groups share tp, edp, pp; dp·cp groups tp, pp; edp groups tp, ep, pp).
struct naive_axis {
    std::int64_t intra = 0, inter = 0, mixed = 0, max_nodes = 1, max_per_node = 1;
    std::vector<std::vector<std::int64_t>> groups;  // members, groups ordered by their first member
};
naive_axis naive_stats(const mesh_layout& m, const char* axis) {
    std::map<std::array<std::int64_t, 3>, std::map<std::int64_t, std::int64_t>> groups;  // key → node → members
    std::map<std::array<std::int64_t, 3>, std::vector<std::int64_t>> members;
    const std::string a = axis;
    for (std::int64_t r = 0; r < m.world; ++r) {
        const rank_coords c = coords_of(m, r);
        std::array<std::int64_t, 3> key = a == "tp" ? std::array{c.cp, c.dp, c.pp}
            : a == "cp"                             ? std::array{c.tp, c.dp, c.pp}
            : a == "dp"                             ? std::array{c.tp, c.cp, c.pp}
            : a == "pp"                             ? std::array{c.tp, c.cp, c.dp}
            : a == "ep"                             ? std::array{c.tp, c.edp, c.pp}
            : a == "edp"                            ? std::array{c.tp, c.ep, c.pp}
                                                    : std::array{c.tp, c.pp, std::int64_t{0}};
        ++groups[key][r / m.spec.gpus_per_node];
        members[key].push_back(r);
    }
    naive_axis n;
    const std::int64_t size = m.world / static_cast<std::int64_t>(groups.size());
    for (const auto& [key, nodes] : groups) {
        const auto spanned = static_cast<std::int64_t>(nodes.size());
        (spanned <= 1 ? n.intra : spanned == size ? n.inter : n.mixed) += 1;
        n.max_nodes = std::max(n.max_nodes, spanned);
        for (const auto& [node, count] : nodes) n.max_per_node = std::max(n.max_per_node, count);
    }
    for (const auto& [key, ranks] : members) n.groups.push_back(ranks);
    std::sort(n.groups.begin(), n.groups.end());
    return n;
}
}  // namespace

TEST_CASE("group statistics equal a naive count over every rank (one pass over the first block when it applies)") {
    struct layout {
        std::int64_t tp, cp, ep, dp, pp;
        const char* order;
        std::int64_t gpn;
    };
    const layout layouts[] = {{2, 1, 1, 4, 8, "tp-cp-ep-dp-pp", 8},  {8, 2, 4, 4, 4, "tp-cp-ep-dp-pp", 8}, {1, 1, 2, 8, 16, "tp-cp-ep-dp-pp", 8},
                              {4, 1, 1, 2, 3, "tp-cp-ep-dp-pp", 8},  {2, 2, 2, 2, 6, "tp-cp-ep-dp-pp", 4}, {8, 1, 8, 8, 2, "pp-dp-ep-cp-tp", 8},
                              {2, 1, 1, 16, 4, "pp-cp-ep-dp-tp", 8}, {4, 2, 1, 3, 5, "dp-cp-ep-tp-pp", 8}, {2, 4, 8, 4, 2, "tp-dp-ep-cp-pp", 16},
                              {1, 1, 1, 8, 12, "tp-cp-ep-dp-pp", 8}, {3, 1, 1, 4, 8, "tp-cp-ep-dp-pp", 6}, {2, 1, 2, 6, 2, "cp-ep-dp-pp-tp", 4}};
    for (const auto& l : layouts)
        for (std::int64_t limit : {std::int64_t{0}, std::int64_t{16}, default_list_limit}) {
            const mesh_layout m = build_mesh(spec(l.tp, l.cp, l.ep, l.dp, l.pp, l.order, l.gpn), limit);
            for (const char* axis : {"tp", "cp", "ep", "dp", "pp", "dp·cp", "edp"}) {
                INFO(l.order << " tp " << l.tp << " cp " << l.cp << " ep " << l.ep << " dp " << l.dp << " pp " << l.pp << " limit " << limit
                             << " axis " << axis);
                const axis_groups& g = m.axis(axis);
                const naive_axis n = naive_stats(m, axis);
                CHECK(g.intra == n.intra);
                CHECK(g.inter == n.inter);
                CHECK(g.mixed == n.mixed);
                CHECK(g.max_nodes == n.max_nodes);
                CHECK(g.max_per_node == n.max_per_node);
                // Listed groups: the first ones by their lowest rank, members as sets, nodes spanned.
                REQUIRE(g.listed <= static_cast<std::int64_t>(n.groups.size()));
                for (std::int64_t i = 0; i < g.listed; ++i) {
                    const auto listed = g.group(i);
                    std::vector<std::int64_t> sorted(listed.begin(), listed.end());
                    std::sort(sorted.begin(), sorted.end());
                    const auto& want = n.groups[static_cast<std::size_t>(i)];
                    CHECK(sorted == want);
                    std::set<std::int64_t> nodes;
                    for (std::int64_t r : want) nodes.insert(r / l.gpn);
                    CHECK(g.listed_nodes[static_cast<std::size_t>(i)] == static_cast<std::int64_t>(nodes.size()));
                }
            }
        }
}

TEST_CASE("tslab mesh names its own spec's fields and caps the listing", "[mesh]") {
    // Issue 15, findings 3 and 7: list_limit 2^20 wrote 54 MB; errors named parallel.ep for "ep".
    CHECK_THROWS_WITH(mesh_json_text(R"({"dp":1048576,"list_limit":1048576})"), Contains("list_limit: 1048576 is out of range [1, 65536]"));
    CHECK_THROWS_WITH(mesh_json_text(R"({"dp":4,"ep":3})"), Catch::StartsWith("ep: 3 does not divide"));
    CHECK_THROWS_WITH(mesh_json_text(R"({"tp":2,"order":"tp-tp-dp"})"), Catch::StartsWith("order: "));
    CHECK_THROWS_WITH(mesh_json_text(R"({"dp":1e400})"), Catch::StartsWith("dp: the number 1e400"));
}
