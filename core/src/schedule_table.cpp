// Look-ups over the schedule rows: names, chunk and stage counts, the micro-batch rule in words.
#include "tslab/schedule_table.hpp"

namespace tslab {

std::optional<schedule_kind> schedule_from_name(std::string_view name) {
    for (const auto& d : schedule_rows)
        if (name == d.name) return d.kind;
    return std::nullopt;
}

const std::vector<std::string>& schedule_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& d : schedule_rows) out.emplace_back(d.name);
        return out;
    }();
    return names;
}

const char* to_string(schedule_kind s) { return describe(s).name; }

std::int64_t chunks_per_rank(const schedule_desc& d, std::int64_t vpp) {
    switch (d.chunks) {
        case chunks_rule::one: return 1;
        case chunks_rule::two: return 2;
        case chunks_rule::vpp: return vpp;
    }
    return 1;
}

std::int64_t path_stages(const schedule_desc& d, std::int64_t ranks, std::int64_t vpp) {
    // DualPipe's two chunks per rank serve two mirrored pipelines of p stages each.
    return d.placement == stage_placement::dual ? ranks : ranks * chunks_per_rank(d, vpp);
}

std::string microbatch_rule(const schedule_desc& d) {
    std::vector<std::string> parts;
    if (d.m_multiple_of_p) parts.emplace_back("m a multiple of p");
    if (d.m_even) parts.emplace_back("m even");
    if (d.m_per_rank > 0) parts.push_back("m ≥ " + std::to_string(d.m_per_rank) + "p");
    if (parts.empty()) return "m ≥ 1";
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

}  // namespace tslab
