// The planner's clock: the steady clock unless a caller injects its own (a test counts deadlines in work).
#pragma once

#include <chrono>
#include <functional>

namespace tslab {

using plan_time = std::chrono::steady_clock::time_point;
// Gives "now". The search reads it between layouts and before each plan it times in full, so a
// clock that ticks once per read turns options.max_seconds into a budget of reads: the same cut on
// an idle machine and a loaded one.
using plan_clock = std::function<plan_time()>;

inline plan_time clock_now(const plan_clock& c) { return c ? c() : std::chrono::steady_clock::now(); }
inline double seconds_between(plan_time a, plan_time b) { return std::chrono::duration<double>(b - a).count(); }

}  // namespace tslab
