// The schedule preconditions of schedule_rules.hpp: one check over the row's fields, one text per rule.
#include "tslab/schedule_rules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tslab/errors.hpp"

namespace tslab {

namespace {

// The schedules whose chunk count is parallel.vpp ("interleaved"), for the vpp messages.
std::string vpp_schedules() {
    std::string out;
    for (const auto& d : schedule_rows)
        if (d.chunks == chunks_rule::vpp) out += (out.empty() ? "" : " or ") + std::string(d.name);
    return out;
}

}  // namespace

// deepseek-ai/DualPipe dualpipe.py step(): assert num_ranks % 2 == 0 and num_chunks % 2 == 0 and
// num_chunks >= num_ranks * 2; dualpipev.py: num_chunks >= num_ranks * 2 only. Narayanan et al.
// (arXiv 2104.04473 section 2.2): interleaving needs m a multiple of the pipeline size.
schedule_rule broken_schedule_rule(schedule_kind k, std::int64_t ranks, std::int64_t m, std::int64_t vpp) {
    const schedule_desc& d = describe(k);
    if (ranks < 1) return schedule_rule::ranks_min;
    if (m < 1) return schedule_rule::microbatches_min;
    if (vpp < 1) return schedule_rule::vpp_min;
    if (ranks < d.min_pp) return schedule_rule::one_stage;
    if (d.chunks != chunks_rule::vpp && vpp > 1) return schedule_rule::vpp_unused;
    if (d.chunks == chunks_rule::vpp && vpp < 2) return schedule_rule::vpp_needed;
    if (vpp > max_chunks_per_rank) return schedule_rule::vpp_max;
    if (ranks % d.pp_multiple != 0) return schedule_rule::ranks_multiple;
    if (d.m_multiple_of_p && m % ranks != 0) return schedule_rule::microbatches_multiple;
    if (d.m_even && m % 2 != 0) return schedule_rule::microbatches_even;
    if (m < d.m_per_rank * ranks) return schedule_rule::microbatches_per_rank;
    return schedule_rule::ok;
}

schedule_rule_text explain_schedule_rule(schedule_rule rule, schedule_kind k, std::int64_t ranks, std::int64_t m,
                                         std::int64_t vpp, const schedule_paths& at) {
    const schedule_desc& d = describe(k);
    switch (rule) {
        case schedule_rule::ok: return {"", ""};
        case schedule_rule::ranks_min: return {at.ranks, fmt::format("must be at least 1, got {}", ranks)};
        case schedule_rule::microbatches_min: return {at.microbatches, fmt::format("must be at least 1, got {}", m)};
        case schedule_rule::vpp_min: return {at.vpp, fmt::format("must be at least 1, got {}", vpp)};
        case schedule_rule::one_stage:
            return {at.schedule, fmt::format("{} is a pipeline schedule and needs {} ≥ {}; with one stage use {}", d.name, at.ranks,
                                             d.min_pp, describe(schedule_kind::one_f_one_b).name)};
        case schedule_rule::vpp_unused:
            return {at.vpp, fmt::format("{} needs {} = {}, not {}", vpp, at.schedule, vpp_schedules(), d.name)};
        case schedule_rule::vpp_needed: return {at.vpp, fmt::format("{} needs vpp ≥ 2 model chunks per rank", d.label)};
        case schedule_rule::vpp_max: return {at.vpp, fmt::format("at most {} chunks per rank, got {}", max_chunks_per_rank, vpp)};
        case schedule_rule::ranks_multiple:
            return {at.ranks, d.pp_multiple == 2 ? fmt::format("{} needs an even number of ranks (PP), got {}", d.label, ranks)
                                                 : fmt::format("{} needs ranks (PP) a multiple of {}, got {}", d.label, d.pp_multiple, ranks)};
        case schedule_rule::microbatches_multiple:
            return {at.microbatches,
                    fmt::format("{} needs micro-batches m = {} divisible by {} = {}", d.label, m, at.ranks_name, ranks)};
        case schedule_rule::microbatches_even:
            return {at.microbatches,
                    fmt::format("{} splits the micro-batches between its two directions, so m must be even, got {}", d.label, m)};
        case schedule_rule::microbatches_per_rank:
            return {at.microbatches, fmt::format("{} needs m ≥ {}·{} = {} micro-batches, got {}", d.name, d.m_per_rank, at.ranks_name,
                                                 d.m_per_rank * ranks, m)};
    }
    return {"", ""};
}

std::int64_t smallest_valid_microbatches(schedule_kind k, std::int64_t ranks, std::int64_t m) {
    const schedule_desc& d = describe(k);
    if (ranks < d.min_pp || ranks % d.pp_multiple != 0) return m;
    std::int64_t out = std::max<std::int64_t>({m, 1, d.m_per_rank * ranks});
    if (d.m_multiple_of_p) out = (out + ranks - 1) / ranks * ranks;
    if (d.m_even && out % 2 != 0) out += d.m_multiple_of_p ? ranks : 1;  // odd p·k: the next multiple is even
    return out;
}

void check_schedule_preconditions(schedule_kind k, std::int64_t ranks, std::int64_t m, std::int64_t vpp, const schedule_paths& at) {
    const schedule_rule rule = broken_schedule_rule(k, ranks, m, vpp);
    if (rule == schedule_rule::ok) return;
    schedule_rule_text t = explain_schedule_rule(rule, k, ranks, m, vpp, at);
    throw input_error(std::move(t.path), std::move(t.reason));
}

}  // namespace tslab
