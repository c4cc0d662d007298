// The one precondition check of pipeline schedules, read from the rows of schedule_table.hpp and
// shared by the scenario rules (scenario_rules.cpp), `tslab schedule` (schedule_io.cpp, through
// generate_schedule) and the planner (through plan_rules_hold).
#pragma once

#include <cstdint>
#include <string>

#include "tslab/messages.hpp"
#include "tslab/schedule_table.hpp"

namespace tslab {

// The first broken precondition, in the order they are checked.
enum class schedule_rule : std::uint8_t {
    ok,
    ranks_min,  // ranks ≥ 1
    microbatches_min,  // m ≥ 1
    vpp_min,  // vpp ≥ 1
    one_stage,  // ranks ≥ the row's min_pp (a one-stage pipeline is 1F1B)
    vpp_unused,  // vpp > 1 on a schedule with a fixed chunk count
    vpp_needed,  // vpp ≥ 2 where the row's chunks are parallel.vpp
    vpp_max,  // vpp ≤ max_chunks_per_rank (pipeline_op stores the chunk in 8 bits)
    ranks_multiple,  // ranks a multiple of the row's pp_multiple (DualPipe: even)
    microbatches_multiple,  // m a multiple of ranks (interleaved)
    microbatches_even,  // m even (DualPipe: half enter at each end)
    microbatches_per_rank,  // m ≥ m_per_rank · ranks (DualPipe, DualPipeV)
};

// Where each quantity lives in the input, for the error path, and what the text calls the ranks.
struct schedule_paths {
    const char *schedule, *ranks, *microbatches, *vpp, *ranks_name;
};
inline constexpr schedule_paths spec_paths{"schedule", "ranks", "microbatches", "vpp", "ranks"};
inline constexpr schedule_paths scenario_paths{"training.schedule", "parallel.pp", "training.global_batch", "parallel.vpp", "pp"};

inline constexpr std::int64_t max_chunks_per_rank = 255;

// O(1) and formats nothing, so a search can test millions of plans.
schedule_rule broken_schedule_rule(schedule_kind k, std::int64_t ranks, std::int64_t microbatches, std::int64_t vpp);

struct schedule_rule_text {
    std::string path, reason;  // reason: the English text of msg
    message msg;
};
// The path and the reason of a broken rule, in the input's own names.
schedule_rule_text explain_schedule_rule(schedule_rule rule, schedule_kind k, std::int64_t ranks, std::int64_t microbatches, std::int64_t vpp,
                                         const schedule_paths& at);

// Throws input_error naming the first broken precondition of the schedule.
// The smallest m' >= m that the row's micro-batch rules accept on `ranks` ranks (m ≥ m_per_rank·p,
// a multiple of p, even); m itself when a rank rule is broken (that error names the ranks instead).
std::int64_t smallest_valid_microbatches(schedule_kind k, std::int64_t ranks, std::int64_t m);

void check_schedule_preconditions(schedule_kind k, std::int64_t ranks, std::int64_t microbatches, std::int64_t vpp, const schedule_paths& at);

}  // namespace tslab
