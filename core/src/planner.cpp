// The planner's search: layouts of N GPUs, then micro-batch, recompute, schedule/vpp and ZeRO
// inside each, with the scenario rules, the memory ledger and the step model of the report.
// Caches: the mesh and the per-stage parameter shards per layout (and schedule); compute and
// communication per (micro-batch, recompute, zero) at vpp 1, derived per vpp; the expert balance
// per micro-batch; pipeline timings across the whole search, keyed on (schedule, p, m, v, B/F,
// W/F, p2p/F) — the timing scales with F at fixed ratios. Memory is plain arithmetic per plan,
// and plans that provably cannot enter the top K or the Pareto front skip the pipeline timing.
#include "tslab/planner.hpp"

#include <algorithm>
#include <array>
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
    if (!base_.training.global_batch_given) base_.training.global_batch = planning_global_batch(gpus_, base_.training.seq_len);
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

// Pruning without the pipeline timing. step_time_of adds bubble and exposed P2P to the compute
// time, and both are ≥ 0 (clamped in pipeline_cost_model.cpp, then scaled by F > 0); IEEE
// addition is monotone, so the time with bubble = P2P = 0 is a lower bound `lb` of the plan's
// time, bit for bit. If the top K is full and lb ≥ its slowest time, the plan cannot enter it
// (consider() needs a strictly smaller time); if a front member has memory ≤ the plan's and
// time ≤ lb, consider() would reject the plan from the front too. Then evaluating it would
// change neither the top K nor the Pareto front (nor the closest miss, which only non-fitting
// plans touch), so skipping it leaves the result identical.
bool plan_search::cannot_place(double memory_bytes, double lb) const {
    if (static_cast<std::int64_t>(best_.size()) < opt_.top) return false;
    if (!best_.empty() && lb < best_.front().time_s) return false;
    // The front is sorted by memory ascending and time descending: the last member with memory
    // ≤ the plan's is the fastest of those.
    auto it = std::upper_bound(front_.begin(), front_.end(), memory_bytes,
                               [](double m, const plan_entry& f) { return m < f.memory_bytes; });
    return it != front_.begin() && std::prev(it)->time_s <= lb;
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
    const std::int64_t G = s.training.global_batch;
    if (G % l.dp != 0) return;  // no micro-batch size divides the batch: nothing to consider
    try {
        validate_mesh_spec(mesh_spec_of(s));
    } catch (const input_error&) {
        return;  // the scenario's axis order cannot place this layout
    }
    std::optional<mesh_layout> mesh;  // built when a plan of this layout first fits
    const auto schedules = schedule_choices(l.pp, s.model.layers);
    // Which chunks each pipeline rank holds does not depend on m: the shards are listed once.
    std::vector<std::vector<detail::rank_shards>> shards;
    for (const auto& [kind, v] : schedules) shards.push_back(detail::stage_shards(s, closed_form_shape(kind, l.pp, v, 1), tensors_));
    for (std::int64_t mb : divisors(G / l.dp)) {
        s.training.micro_batch = mb;
        const std::int64_t m = G / (mb * l.dp);
        std::vector<std::optional<pipeline_shape>> shapes(schedules.size());  // built when a plan needs one
        std::optional<double> imbalance;  // the expert balance depends on tokens per rank, not on the rest
        for (auto rec : {recompute_kind::none, recompute_kind::selective, recompute_kind::full}) {
            s.training.recompute = rec;
            search_recompute(s, mesh, schedules, shards, shapes, m, imbalance);
        }
    }
}

// Compute and communication at vpp 1. Of everything the planner reads, vpp enters only as the
// divisor of the per-chunk costs (compute_time.cpp) and as the factor of the PP send/recv count
// (comm_inventory.cpp), so with_vpp() rebuilds those from the vpp-1 values: x / 1 == x and
// (2m · 1) · v == 2m · v exactly, so the doubles equal what a fresh estimate at vpp v gives.
plan_search::cached_model plan_search::model_at_vpp1(scenario& s, std::optional<mesh_layout>& mesh) const {
    if (!mesh) mesh = build_mesh(mesh_spec_of(s), 0);
    const std::int64_t v = s.parallel.vpp;
    s.parallel.vpp = 1;
    cached_model cm;
    cm.compute = estimate_compute(s);
    const comm_inventory comm = build_comm_inventory(s, *mesh, params_);
    s.parallel.vpp = v;
    cm.pp_exposed_s = pp_transfer_exposed_s(comm);
    cm.axes = axis_totals(comm, schedule_kind::one_f_one_b, cm.compute.step_compute_s);
    cm.axes_dual = axis_totals(comm, schedule_kind::dualpipe, cm.compute.step_compute_s);
    for (const auto& item : comm.items)
        if (item.axis == "pp") cm.pp_call = {item.call.time_s, item.call.bytes, item.count, item.overlap};
    return cm;
}

plan_search::cached_model plan_search::with_vpp(const cached_model& base, std::int64_t v) {
    cached_model cm = base;
    if (v == 1) return cm;
    const double dv = static_cast<double>(v);
    cm.compute.chunk_F_s /= dv, cm.compute.chunk_W_s /= dv, cm.compute.chunk_B_s /= dv;
    if (!cm.pp_call) return cm;
    // comm_item::step_time_s and step_exposed_s, and axis_totals' sums from 0, term for term.
    const auto& pp = *cm.pp_call;
    const double count = pp.count * dv, step = pp.time_s * count;
    for (auto* axes : {&cm.axes, &cm.axes_dual})
        for (auto& a : *axes)
            if (a.axis == "pp") a.time_s = 0.0 + step, a.exposed_s = 0.0 + step * (1.0 - pp.overlap), a.bytes = 0.0 + pp.bytes * count;
    return cm;
}

// One (layout, micro-batch, recompute): every schedule/vpp and ZeRO stage. Memory is plain
// arithmetic on the cached shards; compute and communication are cached per (vpp, zero).
void plan_search::search_recompute(scenario& s, std::optional<mesh_layout>& mesh, const std::vector<std::pair<schedule_kind, std::int64_t>>& schedules,
                                   const std::vector<std::vector<detail::rank_shards>>& shards,
                                   std::vector<std::optional<pipeline_shape>>& shapes, std::int64_t m, std::optional<double>& imbalance) {
    auto& q = s.parallel;
    const detail::activation_terms act = detail::activation_terms_of(s);
    std::map<std::pair<std::int64_t, int>, cached_model> models;  // (vpp, zero)
    std::array<std::optional<cached_model>, 4> bases;              // by zero, at vpp 1
    for (std::size_t i = 0; i < schedules.size(); ++i) {
        const auto [kind, v] = schedules[i];
        s.training.schedule = kind;
        q.vpp = v;
        for (int z = 0; z <= 3; ++z) {
            q.zero = z;
            ++progress_.considered;
            if (!plan_rules_hold(s)) continue;
            ++progress_.evaluated;
            plan_entry e;
            e.choice = {q.dp, q.tp, q.pp, v, q.ep, q.cp, s.training.micro_batch, z, s.training.recompute, kind};
            if (!shapes[i]) shapes[i] = closed_form_shape(kind, q.pp, v, m);
            e.memory_bytes = detail::peak_stage_bytes(s, *shapes[i], shards[i], act);
            e.headroom_bytes = s.cluster.gpu.hbm_bytes - e.memory_bytes;
            if (e.headroom_bytes < 0) {
                consider(e);
                continue;
            }
            auto it = models.find({v, z});
            if (it == models.end()) {
                auto& base = bases[static_cast<std::size_t>(z)];
                if (!base) base = model_at_vpp1(s, mesh);
                it = models.emplace(std::pair{v, z}, with_vpp(*base, v)).first;
            }
            const cached_model& c = it->second;
            if (!imbalance) imbalance = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts}).imbalance_used;
            const bool dual = kind == schedule_kind::dualpipe || kind == schedule_kind::dualpipev;
            const auto& axes = dual ? c.axes_dual : c.axes;
            if (cannot_place(e.memory_bytes, step_time_of(c.compute, 0, 0, axes, *imbalance))) {
                ++progress_.fitting;  // counted as consider() would; it would change nothing else
                continue;
            }
            const schedule_request sq = scenario_schedule_request(s, m);
            const pipeline_timing t = timing_of(sq, chunk_costs(c.compute, sq, c.pp_exposed_s));
            e.time_s = step_time_of(c.compute, t.bubble_s, t.p2p_exposed_s, axes, *imbalance);
            consider(e);
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
