// The auto global batch rule (global_batch.hpp), shared by the scenario parser and the planner.
#include "tslab/global_batch.hpp"

#include <algorithm>
#include <bit>

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

std::int64_t auto_global_batch(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind k, std::int64_t pp) {
    return steps_of(world, seq_len, unit, k, pp).batch;
}

std::vector<message> auto_global_batch_rule_msg(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind k, std::int64_t pp) {
    const rule_steps r = steps_of(world, seq_len, unit, k, pp);
    const std::int64_t u = std::max<std::int64_t>(unit, 1);
    std::vector<message> out{msg("batch.auto",
                                 {{"seq_len", num_text(seq_len)},
                                  {"by_tokens", num_text(r.by_tokens)},
                                  {"world", num_text(world)},
                                  {"floor", num_text(r.floor)},
                                  {"power", num_text(r.power)},
                                  {"unit", num_text(u)},
                                  {"multiple", num_text(r.multiple)}})};
    if (r.batch != r.multiple)
        out.push_back(msg("batch.auto_schedule",
                          {{"microbatches", num_text(r.batch / u)},
                           {"schedule", describe(k).label},
                           {"rule", microbatch_rule(describe(k))},
                           {"batch", num_text(r.batch)}}));
    return out;
}

std::string global_batch_rule_text(const std::vector<message>& rule) {
    std::string text;
    for (const auto& m : rule) text += (text.empty() ? "" : ", ") + english(m);
    return text;
}

std::string auto_global_batch_rule(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind k, std::int64_t pp) {
    return global_batch_rule_text(auto_global_batch_rule_msg(world, seq_len, unit, k, pp));
}

std::vector<message> given_global_batch_rule_msg() { return {msg("batch.given")}; }

}  // namespace tslab
