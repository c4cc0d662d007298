// Mesh warnings in words, the mesh as JSON, and the lab's mesh-only query.
#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/mesh.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

std::vector<message> mesh_warnings(const mesh_layout& m) {
    std::vector<message> w;
    const auto n = [](std::int64_t v) { return std::to_string(v); };
    const auto& s = m.spec;
    const auto& tp = m.axis("tp");
    if (tp.size > 1 && tp.max_nodes > 1)
        w.push_back(msg("mesh.tp_spans_nodes",
                        {{"size", n(tp.size)}, {"nodes", n(tp.max_nodes)}, {"collective", s.sp ? "AllGather/ReduceScatter" : "AllReduce"}}));
    const auto& ep = m.axis("ep");
    if (ep.size > 1 && ep.max_nodes > 1) w.push_back(msg("mesh.ep_spans_nodes", {{"nodes", n(ep.max_nodes)}}));
    const auto& cp = m.axis("cp");
    const auto& method = describe(s.cp_method);
    const bool ulysses = method.alltoall && !method.ring;
    if (cp.size > 1 && cp.max_nodes > 1)
        w.push_back(msg(ulysses                ? "mesh.cp_spans_nodes_ulysses"
                            : method.allgather ? "mesh.cp_spans_nodes_allgather"
                                               : "mesh.cp_spans_nodes_ring",
                        {{"size", n(cp.size)}, {"nodes", n(cp.max_nodes)}}));
    if (s.cp > 1 && ulysses && s.heads > 0 && (s.heads % s.tp != 0 || (s.heads / s.tp) % s.cp != 0))
        w.push_back(msg("mesh.ulysses_heads", {{"heads", n(s.heads)}, {"tp", n(s.tp)}, {"per_rank", n(s.heads / s.tp)}, {"cp", n(s.cp)}}));
    const auto& pp = m.axis("pp");
    if (tp.size > 1 && tp.max_nodes > 1 && pp.size > 1 && pp.max_nodes == 1) w.push_back(msg("mesh.swap_tp_pp"));
    const std::int64_t slots = m.nodes * s.gpus_per_node;
    if (m.world < slots)
        w.push_back(
            msg("mesh.idle_gpus", {{"used", n(m.world)}, {"nodes", n(m.nodes)}, {"per_node", n(s.gpus_per_node)}, {"idle", n(slots - m.world)}}));
    return w;
}

namespace {

void write_axes(json_writer& w, const mesh_layout& m) {
    w.key("axes").begin_array();
    for (const auto& a : m.axes) {
        w.begin_object();
        w.field("axis", a.axis).field("size", a.size).field("groups", a.count).field("intra", a.intra);
        w.field("inter", a.inter).field("mixed", a.mixed).field("max_nodes", a.max_nodes);
        w.field("link", to_string(a.binding())).field("listed", a.listed);
        w.end_object();
    }
    w.end_array();
}

void write_groups(json_writer& w, const mesh_layout& m) {
    w.key("groups").begin_array();
    for (const auto& a : m.axes)
        for (std::int64_t i = 0; i < a.listed; ++i) {
            const auto idx = static_cast<std::size_t>(i);
            w.begin_object();
            w.field("axis", a.axis).field("size", a.size).field("link", to_string(a.listed_link[idx]));
            w.key("ranks").begin_array();
            for (const std::int64_t r : a.group(i)) w.value(r);
            w.end_array();
            w.field("nodes", a.listed_nodes[idx]);
            w.end_object();
        }
    w.end_array();
}

// The mesh's members, without braces, so the mesh query can put its schema first.
void write_mesh_fields(json_writer& w, const mesh_layout& m) {
    std::string order;
    for (const auto& a : m.order) order += (order.empty() ? "" : "-") + a;
    w.field("order", order).field("world", m.world).field("nodes", m.nodes).field("gpus_per_node", m.spec.gpus_per_node);
    write_groups(w, m);
    w.field("warnings", m.warnings);
    w.key("warnings_msg");
    write_messages(w, m.warnings_msg);
    write_axes(w, m);
    w.field("truncated", m.truncated);
    if (m.truncated) w.field("note", fmt::format("groups[] lists at most {} ranks per axis; axes[] counts every group", m.list_limit));
}

}  // namespace

void write_mesh(json_writer& w, const mesh_layout& m) {
    w.begin_object();
    write_mesh_fields(w, m);
    w.end_object();
}

json mesh_to_json(const mesh_layout& m) {
    return json::parse(write_json([&](json_writer& w) { write_mesh(w, m); }));
}

namespace {

constexpr std::int64_t max_list_limit = 1 << 16;

// build_mesh names scenario paths (parallel.ep, cluster.gpus_per_node); a mesh spec has them at its top.
// Its one whole-"parallel" error is a world that the given node count cannot hold: in a mesh spec that
// is the spec's own `nodes` (the lab shows it at that control).
mesh_layout build_mesh_for_spec(const mesh_spec& s, std::int64_t limit) {
    try {
        return build_mesh(s, limit);
    } catch (const input_error& e) {
        std::string path = e.path();
        for (const char* prefix : {"parallel.", "cluster."})
            if (path.rfind(prefix, 0) == 0) path.erase(0, std::char_traits<char>::length(prefix));
        throw input_error(path == "parallel" ? "nodes" : path, e.msg());
    }
}

}  // namespace

std::string mesh_json_text(const std::string& spec_text) {
    const json doc = parse_json(spec_text);
    field_reader r(doc, "");
    mesh_spec s;
    s.dp = r.integer("dp", 1, 1, max_parallel_degree);
    s.tp = r.integer("tp", 1, 1, 4096);
    s.pp = r.integer("pp", 1, 1, 4096);
    s.ep = r.integer("ep", 1, 1, max_parallel_degree);
    s.cp = r.integer("cp", 1, 1, 4096);
    s.order = r.text("order", s.order);
    s.gpus_per_node = r.integer("gpus_per_node", 8, 1, 1024);
    s.nodes = r.integer("nodes", 0, 0, max_parallel_degree);
    s.sp = r.boolean("sp", false);
    s.cp_method = find_row(cp_method_rows, r.choice("cp_method", to_string(s.cp_method), row_names(cp_method_rows)))->kind;
    s.heads = r.integer("heads", 0, 0, 1 << 16);
    // At most 5 axes × 65536 listed ranks (~3 MB of JSON); 2^20 wrote 54 MB.
    const std::int64_t limit = r.integer("list_limit", default_list_limit, 1, max_list_limit);
    r.finish();
    if (s.world() > max_parallel_degree)
        throw input_error(
            "", msg("input.world_over_limit", {{"world", fmt::format("{}", s.world())}, {"limit", fmt::format("{}", max_parallel_degree)}}));
    const mesh_layout m = build_mesh_for_spec(s, limit);
    return write_json([&](json_writer& w) {
        w.begin_object();
        w.field("schema", "tslab/mesh@1");
        write_mesh_fields(w, m);
        w.end_object();
    });
}

}  // namespace tslab
