// Alpha-beta time models of collectives: ring, recursive doubling/halving, Rabenseifner, trees,
// pairwise and Bruck All-to-All, and hierarchical two-level versions for groups spanning nodes.
// t = α·rounds + wire bytes / B (Hockney; Thakur, Rabenseifner & Gropp, IJHPCA 19(1), 2005).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tslab/collective_ops.hpp"
#include "tslab/mesh.hpp"
#include "tslab/scenario.hpp"

namespace tslab {

enum class collective_algorithm { ring, recursive_doubling, recursive_halving, rabenseifner, tree, pairwise, bruck, direct, hierarchical };
const char* to_string(collective_algorithm a);
std::optional<collective_algorithm> algorithm_from_name(std::string_view name);
std::vector<std::string> algorithm_names();

// Which algorithms may be chosen: MPICH's (Thakur et al. 2005: recursive doubling/halving,
// Rabenseifner, Bruck, binomial trees as well as rings) or NCCL's (rings, and the double binary tree
// for AllReduce; All-to-All as grouped send/recv), as GPU training runs them. The step model uses
// NCCL's; `tslab collective` takes "library" (default mpich).
enum class collective_library { mpich, nccl };
const char* to_string(collective_library l);
std::optional<collective_library> library_from_name(std::string_view name);

// Where a group sits: n ranks over `nodes` nodes with `per_node` members on each.
struct group_topology {
    std::int64_t ranks = 2;
    std::int64_t nodes = 1;
    std::int64_t per_node = 2;
    link_class link() const { return nodes <= 1 ? link_class::intra : nodes >= ranks ? link_class::inter : link_class::mixed; }
    static group_topology flat(std::int64_t n, link_class l);  // all intra or every member on its own node
};

// The two link tiers and where their numbers come from ("preset: dgx-h100", a calibration profile).
struct comm_links {
    link_spec intra, inter;
    std::string source;
};

struct collective_estimate {
    collective_op op = collective_op::allreduce;
    collective_algorithm algorithm = collective_algorithm::ring;
    std::string_view algorithm_name;  // e.g. "ring", "hierarchical(rabenseifner)" (static strings)
    std::int64_t ranks = 2;
    double bytes = 0;  // message size S in the nccl-tests convention (the full buffer)
    double wire_bytes = 0;  // bytes one rank sends over all links
    std::int64_t rounds = 0;
    link_class link = link_class::intra;
    double alpha_s = 0, beta_s = 0, time_s = 0;
    double algbw_Bps = 0, busbw_Bps = 0;  // nccl-tests: algbw = S / t, busbw = algbw × factor(n)
    // Overlap hides time, never bytes.
    double exposed_s(double overlap) const { return time_s * (1.0 - overlap); }
};

// The cluster's link tiers, named by source: "preset: dgx-h100" or "cluster: <name>".
comm_links links_of(const cluster_spec& c);
// The same tiers without their source (an empty string): what a search's inventories need.
comm_links link_tiers_of(const cluster_spec& c);

// Every algorithm that applies to this op and group, each timed.
std::vector<collective_estimate> collective_candidates(collective_op op, double bytes, const group_topology& g, const comm_links& l,
                                                       collective_library lib = collective_library::mpich);

// The fastest algorithm, or the one asked for (input_error at "algorithm" when it does not apply).
collective_estimate estimate_collective(collective_op op, double bytes, const group_topology& g, const comm_links& l,
                                        std::optional<collective_algorithm> forced = std::nullopt,
                                        collective_library lib = collective_library::mpich);

// NCCL's pairwise All-to-All of `bytes` per rank when the caller knows how many of them cross the
// network and how many stay on NVLink (node-limited MoE dispatch, expert_dispatch.hpp): n−1 rounds,
// time (n−1)·α_slowest + max(network / B_inter, nvlink / B_intra); the wire bytes are their sum
// (NVLink may exceed `bytes`: what crossed the network once is forwarded to several ranks).
collective_estimate estimate_alltoall_split(double bytes, double network_bytes, double nvlink_bytes, const group_topology& g, const comm_links& l);

// The CLI and wasm query. SPEC: {op, bytes, ranks, algorithm?, link?: {bandwidth_Bps, latency_s} |
// "intra_node" | "inter_node", cluster?: preset name or object (default "dgx-h100"),
// ranks_per_node?, overlap?} -> JSON text (time_s, alpha_s, beta_s, algbw_Bps, busbw_Bps, algorithm...).
json collective_query(const json& spec);
std::string collective_json_text(const std::string& spec_text);
std::string collective_table_text(const std::string& spec_text);

}  // namespace tslab
