// The bounds the parts of one plan search, running side by side, tell each other (planner.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

namespace tslab {

// What the parts of one search running side by side (run_plan's threads) tell each other: the
// least K-th time of any part whose top K is full (that part holds K layouts, all faster) and the
// fastest plan any part has found. Both only fall, so a part that reads them late prunes less,
// never a plan the merged result would keep (plan_search::cannot_place).
// Each part's Pareto front (memory, time) is published whole when it changes.
struct shared_bounds {
    using front = std::vector<std::pair<double, double>>;
    explicit shared_bounds(int parts) : fronts(static_cast<std::size_t>(parts)) {}
    std::atomic<double> kth_s{std::numeric_limits<double>::infinity()};
    std::atomic<double> fastest_s{std::numeric_limits<double>::infinity()};
    std::atomic<std::uint64_t> front_version{0};
    // The next (tp, cp, ep) group of layouts no part has taken (work stealing, plan_search's stealing_t).
    std::atomic<std::size_t> next_group{0};
    std::mutex fronts_mutex;
    std::vector<front> fronts;  // by part
    static void lower(std::atomic<double>& a, double v);
    void publish_front(int part, const front& f);
    // The fronts of the parts other than `part`, merged: memory ascending, time strictly descending.
    front others(int part);
};

}  // namespace tslab
