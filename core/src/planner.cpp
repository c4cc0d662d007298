// The planner's search: layouts of N GPUs, then micro-batch, recompute, schedule/vpp and ZeRO
// inside each, with the scenario rules, the memory ledger and the step model of the report.
// Caches: the mesh per layout; compute and communication per (micro-batch, recompute, vpp, zero);
// the expert balance per micro-batch; pipeline timings across the whole search, keyed on
// (schedule, p, m, v, B/F, W/F, p2p/F) — the timing scales with F at fixed ratios.
#include "tslab/planner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/memory.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/step_model.hpp"

namespace tslab {

namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            out.push_back(d);
            if (d * d != n) out.push_back(n / d);
        }
    std::sort(out.begin(), out.end());
    return out;
}

// (schedule, vpp) pairs: every schedule once, interleaved with each vpp ≥ 2 the layers allow.
std::vector<std::pair<schedule_kind, std::int64_t>> schedule_choices(std::int64_t pp, std::int64_t layers) {
    std::vector<std::pair<schedule_kind, std::int64_t>> out;
    for (int k = 0; k <= static_cast<int>(schedule_kind::dualpipev); ++k) {
        const auto kind = static_cast<schedule_kind>(k);
        if (kind != schedule_kind::interleaved) out.push_back({kind, 1});
        else
            for (std::int64_t v = 2; pp * v <= layers; ++v) out.push_back({kind, v});
    }
    return out;
}

}  // namespace

plan_search::plan_search(const scenario& base, const plan_options& o) : base_(base), opt_(o) {
    gpus_ = o.gpus > 0 ? o.gpus : base.parallel.world();
    if (gpus_ < 1) throw input_error("options.gpus", "must be at least 1");
    base_.cluster.nodes = (gpus_ + base_.cluster.gpus_per_node - 1) / base_.cluster.gpus_per_node;
    params_ = count_params(base_.model);
    tensors_ = tensor_list(base_.model);
    const bool moe = base_.model.is_moe();
    for (std::int64_t tp : divisors(gpus_))
        for (std::int64_t pp : divisors(gpus_ / tp))
            for (std::int64_t cp : divisors(gpus_ / (tp * pp))) {
                const std::int64_t dp = gpus_ / (tp * pp * cp);
                for (std::int64_t ep : moe ? divisors(dp * cp) : std::vector<std::int64_t>{1}) layouts_.push_back({tp, pp, cp, dp, ep});
            }
    progress_.groups_total = static_cast<std::int64_t>(layouts_.size());
}

pipeline_timing plan_search::timing_of(const schedule_request& q, const pipeline_costs& c) {
    const pipe_key key{static_cast<int>(q.kind), q.ranks, q.microbatches, q.vpp, c.B / c.F, c.W / c.F, c.p2p_s / c.F};
    auto it = pipe_cache_.find(key);
    if (it == pipe_cache_.end()) {
        ++misses_;
        pipeline_costs unit = c;  // time once with F = 1, scale on every use
        unit.B /= c.F, unit.W /= c.F, unit.p2p_s /= c.F, unit.F = 1;
        const bool large = schedule_op_estimate(q) > static_cast<double>(opt_.simulate_ops);
        pipeline_timing t = large ? closed_form_pipeline(q, unit) : time_pipeline(q, unit);
        t.peak_inflight.clear();
        it = pipe_cache_.emplace(key, t).first;
    } else {
        ++hits_;
    }
    pipeline_timing t = it->second;
    t.makespan_s *= c.F, t.busy_s *= c.F, t.bubble_s *= c.F, t.p2p_exposed_s *= c.F;
    return t;
}

void plan_search::consider(const plan_entry& e) {
    if (e.headroom_bytes < 0) {
        if (!closest_ || e.headroom_bytes > closest_->headroom_bytes) closest_ = e;
        return;
    }
    ++progress_.fitting;
    const auto slower = [](const plan_entry& a, const plan_entry& b) { return a.time_s < b.time_s; };
    if (static_cast<std::int64_t>(best_.size()) < opt_.top) {
        best_.push_back(e);
        std::push_heap(best_.begin(), best_.end(), slower);
    } else if (!best_.empty() && e.time_s < best_.front().time_s) {
        std::pop_heap(best_.begin(), best_.end(), slower);
        best_.back() = e;
        std::push_heap(best_.begin(), best_.end(), slower);
    }
    // Pareto front by memory ascending, time strictly descending.
    for (const auto& f : front_)
        if (f.memory_bytes <= e.memory_bytes && f.time_s <= e.time_s) return;
    std::erase_if(front_, [&](const plan_entry& f) { return f.memory_bytes >= e.memory_bytes && f.time_s >= e.time_s; });
    front_.insert(std::lower_bound(front_.begin(), front_.end(), e,
                                   [](const plan_entry& a, const plan_entry& b) { return a.memory_bytes < b.memory_bytes; }),
                  e);
}

bool plan_search::advance(std::int64_t budget) {
    const auto start = std::chrono::steady_clock::now();
    const std::int64_t stop_at = progress_.considered + std::max<std::int64_t>(1, budget);
    while (!progress_.done && next_ < layouts_.size() && progress_.considered < stop_at) {
        search_layout(layouts_[next_++]);
        ++progress_.groups_done;
        if (progress_.evaluated >= opt_.max_candidates && next_ < layouts_.size()) progress_.capped = true;
        if (progress_.capped || next_ >= layouts_.size()) progress_.done = true;
    }
    if (layouts_.empty()) progress_.done = true;
    elapsed_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return progress_.done;
}

void plan_search::search_layout(const layout& l) {
    scenario s = base_;
    auto& q = s.parallel;
    q.tp = l.tp, q.pp = l.pp, q.cp = l.cp, q.dp = l.dp, q.ep = l.ep, q.vpp = 1;
    mesh_layout mesh;
    try {
        mesh = build_mesh(mesh_spec_of(s), 0);
    } catch (const input_error&) {
        return;  // the scenario's axis order cannot place this layout
    }
    const std::int64_t G = s.training.global_batch;
    const auto schedules = schedule_choices(l.pp, s.model.layers);
    for (std::int64_t mb : G % l.dp == 0 ? divisors(G / l.dp) : std::vector<std::int64_t>{}) {
        s.training.micro_batch = mb;
        const std::int64_t m = G / (mb * l.dp);
        std::optional<double> imbalance;  // the expert balance depends on tokens per rank, not on the rest
        for (auto rec : {recompute_kind::none, recompute_kind::selective, recompute_kind::full}) {
            s.training.recompute = rec;
            std::map<std::pair<std::int64_t, int>, std::pair<compute_estimate, comm_inventory>> models;  // (vpp, zero)
            for (const auto& [kind, v] : schedules) {
                s.training.schedule = kind;
                q.vpp = v;
                const pipeline_shape shape = closed_form_shape(kind, l.pp, v, m);
                for (int z = 0; z <= 3; ++z) {
                    q.zero = z;
                    ++progress_.considered;
                    if (!plan_rules_hold(s)) continue;
                    ++progress_.evaluated;
                    plan_entry e;
                    e.choice = {l.dp, l.tp, l.pp, v, l.ep, l.cp, mb, z, rec, kind};
                    const memory_report mem = memory_ledger(s, shape, false, &tensors_);
                    e.memory_bytes = mem.total_bytes;
                    e.headroom_bytes = mem.headroom_bytes;
                    if (!mem.fits) {
                        consider(e);
                        continue;
                    }
                    auto it = models.find({v, z});
                    if (it == models.end()) {
                        compute_estimate c = estimate_compute(s);
                        it = models.emplace(std::pair{v, z}, std::pair{std::move(c), build_comm_inventory(s, mesh, params_)}).first;
                    }
                    const auto& [c, comm] = it->second;
                    if (!imbalance) imbalance = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts}).imbalance_used;
                    const schedule_request sq = scenario_schedule_request(s, m);
                    const pipeline_timing t = timing_of(sq, chunk_costs(c, sq, pp_transfer_exposed_s(comm)));
                    e.time_s = step_time_of(c, t.bubble_s, t.p2p_exposed_s, axis_totals(comm, kind, c.step_compute_s), *imbalance);
                    consider(e);
                }
            }
        }
    }
}

plan_result run_plan(const scenario& s, const plan_options& o) {
    plan_search search(s, o);
    while (!search.advance(1'000'000)) {
    }
    return search.result();
}

}  // namespace tslab
