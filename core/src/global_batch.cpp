// The auto global batch rule (global_batch.hpp), shared by the scenario parser and the planner.
#include "tslab/global_batch.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

namespace tslab {

namespace {

constexpr std::int64_t token_floor = std::int64_t{1} << 22;  // Llama 3, arXiv 2407.21783 section 3.4.1

struct rule_steps {
    std::int64_t by_tokens = 0, floor = 0, power = 0, batch = 0;
};

rule_steps steps_of(std::int64_t world, std::int64_t seq_len, std::int64_t unit) {
    rule_steps r;
    r.by_tokens = (token_floor + seq_len - 1) / std::max<std::int64_t>(seq_len, 1);
    r.floor = std::max({r.by_tokens, world, std::int64_t{1}});
    r.power = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(r.floor)));
    const std::int64_t u = std::max<std::int64_t>(unit, 1);
    r.batch = (r.power + u - 1) / u * u;
    return r;
}

}  // namespace

std::int64_t auto_global_batch(std::int64_t world, std::int64_t seq_len, std::int64_t unit) {
    return steps_of(world, seq_len, unit).batch;
}

std::string auto_global_batch_rule(std::int64_t world, std::int64_t seq_len, std::int64_t unit) {
    const rule_steps r = steps_of(world, seq_len, unit);
    return fmt::format("auto: max(2^22 tokens / seq_len {} = {}, world {} GPUs) = {}, rounded up to 2^k = {}, "
                       "then to a multiple of micro_batch × dp = {}: {}",
                       seq_len, r.by_tokens, world, r.floor, r.power, std::max<std::int64_t>(unit, 1), r.batch);
}

}  // namespace tslab
