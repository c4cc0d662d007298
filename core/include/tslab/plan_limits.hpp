// The planner's input limits, below the planner so that the vocabulary the UI reads can name them.
#pragma once

#include <cstdint>

namespace tslab {

// The most GPUs a plan is searched for (options.gpus, or the scenario's world): 2^20 ran for minutes.
inline constexpr std::int64_t max_plan_gpus = 65536;

}  // namespace tslab
