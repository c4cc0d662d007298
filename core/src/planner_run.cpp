// run_plan: the search in one part, or natively split over threads whose parts are merged into the
// result one search would give (plan_search::merged).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/planner.hpp"

#ifndef __EMSCRIPTEN__
#include <thread>
#endif

namespace tslab {

// Every fitting plan a part kept is replayed through keep() in search order. A plan that one search
// would keep is kept by its own part (a part's lists are exact for its layouts: the top K of the
// plans it saw, and the front of those), and keep() over the plans in search order settles
// exact ties as one search does: the earlier stays.
plan_search plan_search::merged(std::vector<plan_search>&& parts) {
    plan_search out = std::move(parts.front());
    std::vector<plan_entry> kept;
    const auto collect = [&](const plan_search& p) {
        kept.insert(kept.end(), p.best_.begin(), p.best_.end());
        kept.insert(kept.end(), p.front_.begin(), p.front_.end());
    };
    collect(out);
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const plan_search& p = parts[i];
        collect(p);
        auto& q = out.progress_;
        q.considered += p.progress_.considered, q.evaluated += p.progress_.evaluated, q.fitting += p.progress_.fitting;
        q.timed += p.progress_.timed, q.groups_done += p.progress_.groups_done, q.groups_total += p.progress_.groups_total;
        q.done = q.done && p.progress_.done, q.capped = q.capped || p.progress_.capped;
        out.hits_ += p.hits_, out.misses_ += p.misses_;
        out.elapsed_s_ = std::max(out.elapsed_s_, p.elapsed_s_);  // the parts ran side by side
        // The first of the plans that miss HBM by the least, as one search keeps it.
        if (p.closest_ &&
            (!out.closest_ || p.closest_->headroom_bytes > out.closest_->headroom_bytes ||
             (p.closest_->headroom_bytes == out.closest_->headroom_bytes && p.closest_->order < out.closest_->order)))
            out.closest_ = p.closest_;
        if (p.baseline_best_ && (!out.baseline_best_ || ranks_before(*p.baseline_best_, *out.baseline_best_))) out.baseline_best_ = p.baseline_best_;
    }
    std::sort(kept.begin(), kept.end(), [](const plan_entry& a, const plan_entry& b) { return a.order < b.order; });
    kept.erase(std::unique(kept.begin(), kept.end(), [](const plan_entry& a, const plan_entry& b) { return a.order == b.order; }), kept.end());
    out.best_.clear(), out.front_.clear(), out.front_points_.clear();
    out.fastest_s_ = std::numeric_limits<double>::infinity();
    out.shared_ = nullptr, out.others_kth_s_ = out.others_fastest_s_ = std::numeric_limits<double>::infinity();
    out.others_front_.clear();
    for (const auto& e : kept) out.keep(e);
    return out;
}

namespace {

// Seconds on the options' clock (the steady clock unless a test injects one).
double seconds_since(const plan_options& o, plan_time t) { return seconds_between(t, clock_now(o.clock)); }
// When options.max_seconds runs out; advance() tests it between layouts and before each full timing.
plan_time deadline_of(plan_time start, double max_seconds) {
    return start + std::chrono::duration_cast<plan_time::duration>(std::chrono::duration<double>(std::clamp(max_seconds, 0.0, 1e7)));
}

// The search in one part, in ~10 ms slices so that the time budget is checked often.
plan_search search_alone(const scenario& s, const plan_options& o, const plan_progress_fn& on_progress, plan_time start) {
    plan_search search(s, o);
    const plan_time deadline = deadline_of(start, o.max_seconds);
    double reported = 0;
    while (!search.advance(20'000, deadline) && clock_now(o.clock) < deadline)
        if (on_progress && seconds_since(o, start) - reported >= 1) on_progress(search.progress(), reported = seconds_since(o, start));
    return search;
}

int threads_of(const plan_options& o) {
#ifdef __EMSCRIPTEN__
    return 1;
#else
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::clamp(o.threads > 0 ? o.threads : hw, 1, max_plan_threads);
#endif
}

#ifndef __EMSCRIPTEN__
// The parts on their own threads, each taking the next (tp, cp, ep) group no part has taken yet
// (work stealing: a part on a busier core takes fewer, so two threads are never slower than one);
// this thread reports the summed progress about once a second. Each part gets its share of
// options.max_candidates.
plan_search search_in_parts(const scenario& s, const plan_options& o, int n, const plan_progress_fn& on_progress, plan_time start) {
    const plan_options each = part_options(o, n);
    shared_bounds shared(n);  // outlives the parts
    std::vector<plan_search> parts;
    for (int k = 0; k < n; ++k) parts.emplace_back(s, each, k, n, plan_search::stealing_t{}), parts.back().share_bounds(&shared);
    std::vector<std::atomic<std::int64_t>> considered(static_cast<std::size_t>(n)), layouts(static_cast<std::size_t>(n));
    std::atomic<int> running{n};
    const plan_time deadline = deadline_of(start, o.max_seconds);
    std::vector<std::thread> threads;
    for (int k = 0; k < n; ++k)
        threads.emplace_back([&, k] {
            plan_search& p = parts[static_cast<std::size_t>(k)];
            while (!p.advance(20'000, deadline) && clock_now(o.clock) < deadline)
                considered[static_cast<std::size_t>(k)] = p.progress().considered, layouts[static_cast<std::size_t>(k)] = p.progress().groups_done;
            --running;
        });
    for (double reported = 0; running > 0;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (!on_progress || seconds_since(o, start) - reported < 1) continue;
        plan_progress sum;
        for (int k = 0; k < n; ++k)
            sum.considered += considered[static_cast<std::size_t>(k)], sum.groups_done += layouts[static_cast<std::size_t>(k)];
        for (const auto& p : parts) sum.groups_total += p.progress().groups_total;  // set at construction
        on_progress(sum, reported = seconds_since(o, start));
    }
    for (auto& t : threads) t.join();
    return plan_search::merged(std::move(parts));
}
#endif

}  // namespace

plan_result run_plan(const scenario& s, const plan_options& o, const plan_progress_fn& on_progress) {
    check_plan_gpus(s, o);
    const plan_time start = clock_now(o.clock);
    [[maybe_unused]] const int n = threads_of(o);
#ifdef __EMSCRIPTEN__
    const plan_search search = search_alone(s, o, on_progress, start);
#else
    const plan_search search = n > 1 ? search_in_parts(s, o, n, on_progress, start) : search_alone(s, o, on_progress, start);
#endif
    const double searched = seconds_since(o, start);
    plan_result r = search.result(std::max(0.0, o.max_seconds - searched));
    r.elapsed_s = searched;
    if (!r.progress.done) {
        r.progress.capped = true;
        r.say(msg("plan.stopped",
                  {{"seconds", fmt::format("{:.1f}", searched)},
                   {"max", fmt::format("{:g}", o.max_seconds)},
                   {"done", std::to_string(r.progress.groups_done)},
                   {"total", std::to_string(r.progress.groups_total)}}));
    }
    const auto kept = std::count_if(r.pareto.begin(), r.pareto.end(), [](const plan_entry& e) { return !e.time_from_report; });
    if (kept > 0) r.say(msg("plan.pareto_closed_form", {{"kept", std::to_string(kept)}, {"max", fmt::format("{:g}", o.max_seconds)}}));
    return r;
}

}  // namespace tslab
