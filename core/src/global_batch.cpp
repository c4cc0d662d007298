// The auto global batch rule (global_batch.hpp), shared by the scenario parser and the planner.
#include "tslab/global_batch.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "tslab/schedule_rules.hpp"

namespace tslab {

namespace {

constexpr std::int64_t token_floor = std::int64_t{1} << 22;  // Llama 3, arXiv 2407.21783 section 3.4.1

struct rule_steps {
    std::int64_t by_tokens = 0, floor = 0, power = 0, multiple = 0, batch = 0;
};

rule_steps steps_of(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind k, std::int64_t pp) {
    rule_steps r;
    r.by_tokens = (token_floor + seq_len - 1) / std::max<std::int64_t>(seq_len, 1);
    r.floor = std::max({r.by_tokens, world, std::int64_t{1}});
    r.power = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(r.floor)));
    const std::int64_t u = std::max<std::int64_t>(unit, 1);
    r.multiple = (r.power + u - 1) / u * u;
    r.batch = smallest_valid_microbatches(k, pp, r.multiple / u) * u;
    return r;
}

}  // namespace

std::int64_t auto_global_batch(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind k,
                               std::int64_t pp) {
    return steps_of(world, seq_len, unit, k, pp).batch;
}

std::string auto_global_batch_rule(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind k,
                                   std::int64_t pp) {
    const rule_steps r = steps_of(world, seq_len, unit, k, pp);
    const std::int64_t u = std::max<std::int64_t>(unit, 1);
    std::string text = fmt::format("auto: max(2^22 tokens / seq_len {} = {}, world {} GPUs) = {}, rounded up to 2^k = {}, "
                                   "then to a multiple of micro_batch × dp = {}: {}",
                                   seq_len, r.by_tokens, world, r.floor, r.power, u, r.multiple);
    if (r.batch != r.multiple)
        text += fmt::format(", then to {} micro-batches per pipeline for {} ({}): {}", r.batch / u, describe(k).label,
                            microbatch_rule(describe(k)), r.batch);
    return text;
}

}  // namespace tslab
