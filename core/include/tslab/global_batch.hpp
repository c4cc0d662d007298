// The auto global batch: the one rule the report and the planner use when training.global_batch
// is absent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tslab/messages.hpp"
#include "tslab/schedule_table.hpp"

namespace tslab {

// Sequences per step when the scenario does not set training.global_batch: at least 2^22 tokens
// (4M, Llama 3's initial batch, arXiv 2407.21783 section 3.4.1) and at least one sequence per GPU
// of the world, rounded up to a power of two (so that many dp × micro-batch splits divide it), then
// up to a multiple of `unit` = micro_batch × dp so that it is valid for the plan at hand. The world,
// not dp, sets it: changing tp, pp or cp at a fixed GPU count keeps the batch. Last, the micro-batches
// per pipeline (batch / unit) go up to the smallest count the schedule accepts on pp ranks
// (DualPipe: m even and m ≥ 2·pp), so the default never breaks a schedule rule the user did not set.
std::int64_t auto_global_batch(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind schedule = schedule_kind::one_f_one_b,
                               std::int64_t pp = 1);

// The rule with its numbers as registered messages, so that the lab words it in the reader's
// language: batch.auto, then batch.auto_schedule where the schedule raised the batch further.
std::vector<message> auto_global_batch_rule_msg(std::int64_t world, std::int64_t seq_len, std::int64_t unit,
                                                schedule_kind schedule = schedule_kind::one_f_one_b, std::int64_t pp = 1);

// The same in English, its clauses joined by ", ", e.g. "auto: max(2^22 tokens / seq_len 4096 =
// 1024, world 64 GPUs) = 1024, rounded up to 2^k = 1024, then to a multiple of micro_batch × dp = 8: 1024".
std::string global_batch_rule_text(const std::vector<message>& rule);
std::string auto_global_batch_rule(std::int64_t world, std::int64_t seq_len, std::int64_t unit, schedule_kind schedule = schedule_kind::one_f_one_b,
                                   std::int64_t pp = 1);

// The rule when the batch was given: batch.given, "set by training.global_batch".
std::vector<message> given_global_batch_rule_msg();

}  // namespace tslab
