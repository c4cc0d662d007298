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

schedule_rule_text explain_schedule_rule(schedule_rule rule, schedule_kind k, std::int64_t ranks, std::int64_t m, std::int64_t vpp,
                                         const schedule_paths& at) {
    const schedule_desc& d = describe(k);
    const auto num = [](std::int64_t v) { return fmt::format("{}", v); };
    const auto said = [](const char* path, message why) { return schedule_rule_text{path, english(why), std::move(why)}; };
    switch (rule) {
        case schedule_rule::ok: return {"", "", {}};
        case schedule_rule::ranks_min: return said(at.ranks, msg("schedule.at_least_one", {{"value", num(ranks)}}));
        case schedule_rule::microbatches_min: return said(at.microbatches, msg("schedule.at_least_one", {{"value", num(m)}}));
        case schedule_rule::vpp_min: return said(at.vpp, msg("schedule.at_least_one", {{"value", num(vpp)}}));
        case schedule_rule::one_stage:
            return said(at.schedule,
                        msg("schedule.one_stage",
                            {{"schedule", d.name},
                             {"ranks_field", at.ranks},
                             {"min_pp", num(d.min_pp)},
                             {"fallback", describe(schedule_kind::one_f_one_b).name}}));
        case schedule_rule::vpp_unused:
            return said(at.vpp,
                        msg("schedule.vpp_unused",
                            {{"vpp", num(vpp)}, {"schedule_field", at.schedule}, {"schedules", vpp_schedules()}, {"schedule", d.name}}));
        case schedule_rule::vpp_needed: return said(at.vpp, msg("schedule.vpp_needed", {{"label", d.label}}));
        case schedule_rule::vpp_max: return said(at.vpp, msg("schedule.vpp_max", {{"max", num(max_chunks_per_rank)}, {"vpp", num(vpp)}}));
        case schedule_rule::ranks_multiple:
            return said(at.ranks,
                        d.pp_multiple == 2
                            ? msg("schedule.ranks_even", {{"label", d.label}, {"ranks", num(ranks)}})
                            : msg("schedule.ranks_multiple", {{"label", d.label}, {"multiple", num(d.pp_multiple)}, {"ranks", num(ranks)}}));
        case schedule_rule::microbatches_multiple:
            return said(
                at.microbatches,
                msg("schedule.microbatches_multiple", {{"label", d.label}, {"m", num(m)}, {"ranks_name", at.ranks_name}, {"ranks", num(ranks)}}));
        case schedule_rule::microbatches_even: return said(at.microbatches, msg("schedule.microbatches_even", {{"label", d.label}, {"m", num(m)}}));
        case schedule_rule::microbatches_per_rank:
            return said(at.microbatches,
                        msg("schedule.microbatches_too_few",
                            {{"schedule", d.name},
                             {"per_rank", num(d.m_per_rank)},
                             {"ranks_name", at.ranks_name},
                             {"needed", num(d.m_per_rank * ranks)},
                             {"m", num(m)}}));
    }
    return {"", "", {}};
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
    throw input_error(std::move(t.path), std::move(t.msg));
}

}  // namespace tslab
