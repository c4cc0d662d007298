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
        if (letters >= 1 && letters <= 3 && nd >= 2 && nd <= 4 && rest <= 1 && (rest == 0 || std::isalpha(static_cast<unsigned char>(tok.back())))) {
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

void cluster_warnings(const calibration_profile& p, const cluster_spec& c, std::int64_t world, std::vector<message>& out) {
    const auto n = [](std::int64_t v) { return std::to_string(v); };
    const std::string device = p.devices.empty() ? "" : p.devices.front().name;
    const std::string a = gpu_model_token(device), b = gpu_model_token(c.gpu.name);
    if (p.backend == "cuda" && !a.empty() && !b.empty() && a != b)
        out.push_back(msg("calibration.warn.other_gpu", {{"device", device}, {"gpu", c.gpu.name}}));
    const std::int64_t nodes = c.nodes > 0 ? c.nodes : (world > 0 ? (world + c.gpus_per_node - 1) / c.gpus_per_node : 0);
    if (nodes > 1 && p.nodes < 2)
        out.push_back(msg("calibration.warn.one_node", {{"measured", n(p.nodes)}, {"nodes", n(nodes)}}));
    else if (nodes > p.nodes && p.nodes > 1)
        out.push_back(msg("calibration.warn.fewer_nodes", {{"measured", n(p.nodes)}, {"nodes", n(nodes)}}));
    const std::int64_t intra = largest_group(p, link_scope::intra);
    if (intra > 0 && intra < c.gpus_per_node)
        out.push_back(msg("calibration.warn.small_node_group", {{"ranks", n(intra)}, {"per_node", n(c.gpus_per_node)}}));
}

}  // namespace

std::vector<message> calibration_warning_messages(const calibration_profile& p, const cluster_spec* c, std::int64_t world) {
    std::vector<message> out;
    if (!p.complete)
        out.push_back(p.provenance.stop_reason.empty() ? msg("calibration.warn.incomplete")
                                                       : msg("calibration.warn.incomplete_why", {{"why", p.provenance.stop_reason}}));
    if (p.backend == "cpu") out.push_back(msg("calibration.warn.cpu_backend"));
    if (c) cluster_warnings(p, *c, world, out);
    return out;
}

std::vector<std::string> calibration_warnings(const calibration_profile& p, const cluster_spec* c, std::int64_t world) {
    std::vector<std::string> out;
    for (const auto& m : calibration_warning_messages(p, c, world)) out.push_back(english(m));
    return out;
}

}  // namespace tslab
