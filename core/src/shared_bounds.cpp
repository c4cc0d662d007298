// The bounds parts of one plan search publish to each other: the least K-th time, the fastest
// plan, and each part's Pareto front (shared_bounds.hpp).
#include "tslab/shared_bounds.hpp"

#include <algorithm>

namespace tslab {

void shared_bounds::lower(std::atomic<double>& a, double v) {
    double seen = a.load(std::memory_order_relaxed);
    while (v < seen && !a.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {}
}

void shared_bounds::publish_front(int part, const front& f) {
    const std::lock_guard lock(fronts_mutex);
    fronts[static_cast<std::size_t>(part)] = f;
    front_version.fetch_add(1, std::memory_order_release);
}

shared_bounds::front shared_bounds::others(int part) {
    front all;
    {
        const std::lock_guard lock(fronts_mutex);
        for (std::size_t k = 0; k < fronts.size(); ++k)
            if (static_cast<int>(k) != part) all.insert(all.end(), fronts[k].begin(), fronts[k].end());
    }
    std::sort(all.begin(), all.end());
    front out;
    for (const auto& p : all)
        if (out.empty() || p.second < out.back().second) out.push_back(p);
    return out;
}

}  // namespace tslab
