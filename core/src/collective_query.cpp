// The standalone collective query (`tslab collective`, wasm `collective`): spec in, timing out.
#include <algorithm>

#include <fmt/format.h>

#include "tslab/collectives.hpp"
#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/presets.hpp"

namespace tslab {

comm_links link_tiers_of(const cluster_spec& c) { return {c.intra_node, c.inter_node, {}}; }

comm_links links_of(const cluster_spec& c) {
    // A calibration profile has already replaced the link tiers it measured (apply_calibration);
    // its source names the run, e.g. "calibrated: NVIDIA H200 ×8, 2026-12-01".
    if (c.profile) return {c.intra_node, c.inter_node, c.source};
    static const std::vector<std::string> names = cluster_preset_names();  // the preset table is fixed; every inventory asks
    const bool preset = std::find(names.begin(), names.end(), c.name) != names.end();
    return {c.intra_node, c.inter_node, fmt::format("{}: {}", preset ? "preset" : "cluster", c.name)};
}

namespace {

json parse_json_text(const std::string& text) { return parse_json(text); }

collective_op parse_query_op(field_reader& r) {
    if (!r.has("op")) throw input_error("op", msg("collective.op_missing"));
    const std::string name = r.text("op", "");
    if (auto op = collective_from_name(name)) return *op;
    std::vector<std::string> names;
    for (const auto& d : collective_table()) names.emplace_back(d.name);
    const std::string near = closest_name(name, names);
    throw input_error(
        "op", near.empty() ? msg("collective.unknown_op", {{"name", name}}) : msg("collective.unknown_op_near", {{"name", name}, {"near", near}}));
}

std::optional<collective_algorithm> parse_algorithm(field_reader& r) {
    if (!r.has("algorithm")) return std::nullopt;
    const std::string name = r.text("algorithm", "");
    if (auto a = algorithm_from_name(name)) return a;
    const std::string near = closest_name(name, algorithm_names());
    throw input_error("algorithm",
                      near.empty() ? msg("collective.unknown_algorithm", {{"name", name}})
                                   : msg("collective.unknown_algorithm_near", {{"name", name}, {"near", near}}));
}

link_spec parse_link_object(const json& obj) {
    field_reader r(obj, "link");
    link_spec l;
    l.bandwidth_Bps = r.number("bandwidth_Bps", 0, -1e300, 1e16);
    l.latency_s = r.number("latency_s", 0, -1e300, 10);
    r.finish();
    if (!(l.bandwidth_Bps > 0))
        throw input_error("link.bandwidth_Bps", msg("collective.bandwidth_not_positive", {{"value", num_text(l.bandwidth_Bps)}}));
    if (l.bandwidth_Bps < 1e3)  // as cluster links (scenario.cpp): 5e-324 B/s made every time infinite
        throw input_error("link.bandwidth_Bps", msg("collective.bandwidth_too_low", {{"value", num_text(l.bandwidth_Bps)}}));
    if (l.latency_s < 0) throw input_error("link.latency_s", msg("collective.value_negative", {{"value", num_text(l.latency_s)}}));
    return l;
}

struct query {
    collective_op op;
    double bytes = 0, overlap = 0;
    group_topology g;
    comm_links links;
    std::string link_name;
    std::optional<collective_algorithm> algorithm;
    collective_library library = collective_library::mpich;
};

// Where the group sits: a given link (flat), a named tier (flat), or the cluster's nodes.
void place_group(query& q, const json* link, std::int64_t per_node, const cluster_spec& c) {
    const std::int64_t n = q.g.ranks;
    if (link && link->is_object()) {
        const link_spec l = parse_link_object(*link);
        q.links = {l, l, "spec: link"};
        q.g = group_topology::flat(n, link_class::intra);
        q.link_name = "custom";
        return;
    }
    q.links = links_of(c);
    if (link) {
        const std::string tier = link->is_string() ? link->get<std::string>() : "";
        if (tier != "intra_node" && tier != "inter_node")
            throw input_error("link", msg("collective.link_not_spec", {{"shape", "{bandwidth_Bps, latency_s}"}}));
        q.g = group_topology::flat(n, tier == "intra_node" ? link_class::intra : link_class::inter);
        q.link_name = tier == "intra_node" ? "intra" : "inter";
        return;
    }
    const std::int64_t k = per_node > 0 ? per_node : c.gpus_per_node;
    if (n > k && n % k != 0) throw input_error("ranks", msg("collective.ranks_not_multiple", {{"ranks", num_text(n)}, {"per_node", num_text(k)}}));
    q.g = n <= k ? group_topology::flat(n, link_class::intra) : group_topology{n, n / k, k};
    q.link_name = to_string(q.g.link());
}

query parse_query(const json& spec) {
    field_reader r(spec, "");
    query q;
    q.op = parse_query_op(r);
    q.bytes = r.number("bytes", 0, -1e300, 1e18);
    if (!(q.bytes > 0)) throw input_error("bytes", msg("collective.value_not_positive", {{"value", num_text(q.bytes)}}));
    q.g.ranks = r.integer("ranks", 0, -(1 << 20), 1 << 20);
    if (q.g.ranks < 2) throw input_error("ranks", msg("collective.ranks_below_two", {{"ranks", num_text(q.g.ranks)}}));
    q.algorithm = parse_algorithm(r);
    const std::string lib = r.text("library", "mpich");
    if (auto l = library_from_name(lib))
        q.library = *l;
    else
        throw input_error("library", msg("collective.unknown_library", {{"name", lib}}));
    const json* cluster = r.raw("cluster");
    const json* link = r.raw("link");
    const std::int64_t per_node = r.integer("ranks_per_node", 0, 1, 1024);
    if (per_node > 0 && link) throw input_error("ranks_per_node", msg("collective.per_node_with_link"));
    q.overlap = r.number("overlap", 0, 0, 1);
    r.finish();
    const scenario s = parse_scenario(json{{"cluster", cluster ? *cluster : json("dgx-h100")}});
    place_group(q, link, per_node, s.cluster);
    return q;
}

}  // namespace

json collective_query(const json& spec) {
    const query q = parse_query(spec);
    const collective_estimate e = estimate_collective(q.op, q.bytes, q.g, q.links, q.algorithm, q.library);
    json cands = json::array();
    for (const auto& c : collective_candidates(q.op, q.bytes, q.g, q.links, q.library))
        cands.push_back({{"algorithm", c.algorithm_name},
                         {"time_s", c.time_s},
                         {"alpha_s", c.alpha_s},
                         {"beta_s", c.beta_s},
                         {"rounds", c.rounds},
                         {"wire_bytes", c.wire_bytes}});
    return json{{"schema", "tslab/collective@1"},
                {"op", describe(q.op).name},
                {"ranks", e.ranks},
                {"bytes", e.bytes},
                {"algorithm", e.algorithm_name},
                {"library", to_string(q.library)},
                {"chosen_by", q.algorithm ? "spec" : "minimum time"},
                {"link", q.link_name},
                {"link_source", q.links.source},
                {"nodes", q.g.nodes},
                {"ranks_per_node", q.g.per_node},
                {"time_s", e.time_s},
                {"alpha_s", e.alpha_s},
                {"beta_s", e.beta_s},
                {"algbw_Bps", e.algbw_Bps},
                {"busbw_Bps", e.busbw_Bps},
                {"busbw_factor", describe(q.op).busbw_factor(static_cast<double>(e.ranks))},
                {"wire_bytes", e.wire_bytes},
                {"rounds", e.rounds},
                {"overlap", q.overlap},
                {"exposed_s", e.exposed_s(q.overlap)},
                {"candidates", std::move(cands)}};
}

std::string collective_json_text(const std::string& spec_text) { return collective_query(parse_json_text(spec_text)).dump(2); }

std::string collective_table_text(const std::string& spec_text) {
    const json j = collective_query(parse_json_text(spec_text));
    std::string out = fmt::format("{} of {:.4g} B on {} ranks ({} link; {})\n", j["op"].get<std::string>(), j["bytes"].get<double>(),
                                  j["ranks"].get<std::int64_t>(), j["link"].get<std::string>(), j["link_source"].get<std::string>());
    out += fmt::format("  algorithm  {} (chosen by {})\n", j["algorithm"].get<std::string>(), j["chosen_by"].get<std::string>());
    out += fmt::format("  time       {:.4g} s = alpha {:.4g} s + beta {:.4g} s\n", j["time_s"].get<double>(), j["alpha_s"].get<double>(),
                       j["beta_s"].get<double>());
    out += fmt::format("  algbw      {:.4g} GB/s   busbw {:.4g} GB/s (factor {:.4g})\n", j["algbw_Bps"].get<double>() / 1e9,
                       j["busbw_Bps"].get<double>() / 1e9, j["busbw_factor"].get<double>());
    out += fmt::format("  wire       {:.4g} B per rank in {} rounds; exposed {:.4g} s at overlap {:g}\n", j["wire_bytes"].get<double>(),
                       j["rounds"].get<std::int64_t>(), j["exposed_s"].get<double>(), j["overlap"].get<double>());
    out += "  candidates\n";
    for (const auto& c : j["candidates"])
        out += fmt::format("    {:<36} {:.4g} s (alpha {:.4g} + beta {:.4g})\n", c["algorithm"].get<std::string>(), c["time_s"].get<double>(),
                           c["alpha_s"].get<double>(), c["beta_s"].get<double>());
    return out;
}

}  // namespace tslab
