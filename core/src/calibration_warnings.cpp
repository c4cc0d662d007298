// Mismatch warnings between a calibration profile and a cluster (CLI stderr and the lab's badge).
#include "tslab/calibration_warnings.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace tslab {

std::string gpu_model_token(const std::string& name) {
    // A token is 1-3 letters then 2-4 digits then an optional letter, bounded by non-alphanumerics.
    for (std::size_t i = 0; i < name.size();) {
        std::size_t j = i;
        while (j < name.size() && std::isalnum(static_cast<unsigned char>(name[j]))) ++j;
        const std::string tok = name.substr(i, j - i);
        std::size_t letters = 0;
        while (letters < tok.size() && std::isalpha(static_cast<unsigned char>(tok[letters]))) ++letters;
        std::size_t digits = letters;
        while (digits < tok.size() && std::isdigit(static_cast<unsigned char>(tok[digits]))) ++digits;
        const std::size_t nd = digits - letters, rest = tok.size() - digits;
        if (letters >= 1 && letters <= 3 && nd >= 2 && nd <= 4 && rest <= 1 &&
            (rest == 0 || std::isalpha(static_cast<unsigned char>(tok.back())))) {
            std::string up = tok;
            for (auto& ch : up) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
            return up;
        }
        i = j + 1;
    }
    return "";
}

namespace {

std::int64_t largest_group(const calibration_profile& p, link_scope s) {
    std::int64_t n = 0;
    for (const auto& c : p.collectives)
        if (c.scope == s) n = std::max(n, c.ranks);
    return n;
}

void cluster_warnings(const calibration_profile& p, const cluster_spec& c, std::int64_t world, std::vector<std::string>& out) {
    const std::string device = p.devices.empty() ? "" : p.devices.front().name;
    const std::string a = gpu_model_token(device), b = gpu_model_token(c.gpu.name);
    if (p.backend == "cuda" && !a.empty() && !b.empty() && a != b)
        out.push_back(fmt::format("calibration profile measured {} but the cluster's GPU is {}: its figures describe other hardware",
                                  device, c.gpu.name));
    const std::int64_t nodes = c.nodes > 0 ? c.nodes : (world > 0 ? (world + c.gpus_per_node - 1) / c.gpus_per_node : 0);
    if (nodes > 1 && p.nodes < 2)
        out.push_back(fmt::format("calibration profile measured {} node(s) but the cluster has {}: no inter-node fit, the "
                                  "inter-node link stays the datasheet's", p.nodes, nodes));
    else if (nodes > p.nodes && p.nodes > 1)
        out.push_back(fmt::format("calibration profile measured {} nodes but the cluster has {}: its inter-node fits are "
                                  "extrapolated to a larger scale", p.nodes, nodes));
    const std::int64_t intra = largest_group(p, link_scope::intra);
    if (intra > 0 && intra < c.gpus_per_node)
        out.push_back(fmt::format("calibration profile's largest intra-node group has {} ranks but the cluster has {} GPUs "
                                  "per node", intra, c.gpus_per_node));
}

}  // namespace

std::vector<std::string> calibration_warnings(const calibration_profile& p, const cluster_spec* c, std::int64_t world) {
    std::vector<std::string> out;
    if (!p.complete)
        out.push_back("calibration profile is incomplete" +
                      (p.provenance.stop_reason.empty() ? std::string{} : " (" + p.provenance.stop_reason + ")") +
                      ": some probes were not measured");
    if (p.backend == "cpu")
        out.push_back("calibration profile was measured with the CPU backend (MPI between processes), not on GPUs");
    if (c) cluster_warnings(p, *c, world, out);
    return out;
}

}  // namespace tslab
