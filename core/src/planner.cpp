// The planner's search state: the layouts of N GPUs, the pipeline-timing cache, the top K and
// Pareto bookkeeping with its pruning bound, and the per-(micro-batch, recompute, zero) compute
// and communication model (derived per vpp) with the step-time bounds read from it, cheapest
// first (may_place), then the bubble's (bubble_floor). The walk over one layout is in
// planner_layout.cpp. Pipeline timings are cached across the whole search, keyed on (schedule, p,
// m, v, B/F, W/F, p2p/F): the timing scales with F at fixed ratios.
#include "tslab/planner.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <iterator>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "tslab/dp_overlap.hpp"
#include "tslab/expert.hpp"
#include "tslab/errors.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/memory.hpp"
#include "tslab/pipeline_bound.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/step_model.hpp"

namespace tslab {

namespace detail {

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

}  // namespace detail

// Each layout's (tp, cp, ep) group, numbered in first-appearance order: the unit parts split the
// search by, since the caches a layout fills are keyed on it.
std::vector<std::size_t> plan_search::layout_groups() const {
    std::map<std::array<std::int64_t, 3>, std::size_t> key_index;
    std::vector<std::size_t> out;
    out.reserve(layouts_.size());
    for (const layout& l : layouts_) out.push_back(key_index.try_emplace({l.tp, l.cp, l.ep}, key_index.size()).first->second);
    return out;
}

plan_search::plan_search(const scenario& base, const plan_options& o, int part, int parts, stealing_t) : plan_search(base, o) {
    part_ = part, parts_ = parts;
    const std::vector<std::size_t> group = layout_groups();
    for (std::size_t i = 0; i < layouts_.size(); ++i) {
        if (group[i] == groups_.size()) groups_.emplace_back();
        groups_[group[i]].push_back(i);
    }
    pool_ = std::move(layouts_);
    layouts_.clear(), layout_ids_.clear();
    // The parts' counts are summed (merged, and run_plan's progress): the whole list counts once.
    progress_.groups_total = part == 0 ? static_cast<std::int64_t>(pool_.size()) : 0;
}

bool plan_search::claim_group() {
    if (groups_.empty() || !shared_) return false;
    const std::size_t g = shared_->next_group.fetch_add(1, std::memory_order_relaxed);
    if (g >= groups_.size()) return false;
    for (const std::size_t i : groups_[g]) layouts_.push_back(pool_[i]), layout_ids_.push_back(static_cast<std::int64_t>(i));
    return true;
}

plan_search::plan_search(const scenario& base, const plan_options& o, int part, int parts) : plan_search(base, o) {
    part_ = part, parts_ = parts;
    std::vector<layout> mine;
    layout_ids_.clear();
    const std::vector<std::size_t> group = layout_groups();
    for (std::size_t i = 0; i < layouts_.size(); ++i)
        if (static_cast<int>(group[i] % static_cast<std::size_t>(parts)) == part)
            mine.push_back(layouts_[i]), layout_ids_.push_back(static_cast<std::int64_t>(i));
    layouts_ = std::move(mine);
    progress_.groups_total = static_cast<std::int64_t>(layouts_.size());
}

plan_search::plan_search(const scenario& base, const plan_options& o) : base_(base), opt_(o) {
    gpus_ = o.gpus > 0 ? o.gpus : base.parallel.world();
    if (gpus_ < 1) throw input_error("options.gpus", msg("input.must_be_at_least_one"));
    base_.cluster.nodes = (gpus_ + base_.cluster.gpus_per_node - 1) / base_.cluster.gpus_per_node;
    // Without training.global_batch: the auto rule (global_batch.hpp), as the report applies it. On
    // the scenario's own GPU count that is the batch its report uses; on another count, the rule with
    // no plan's micro_batch × dp (the power of two), which many dp × micro-batch splits divide.
    auto& t = base_.training;
    if (!t.global_batch_given && gpus_ != base.parallel.world()) t.global_batch = auto_global_batch(gpus_, t.seq_len, 1);
    const std::int64_t unit = gpus_ == base.parallel.world() ? t.micro_batch * base.parallel.dp : 1;
    batch_rule_ = t.global_batch_given   ? given_global_batch_rule_msg()
        : gpus_ == base.parallel.world() ? auto_global_batch_rule_msg(gpus_, t.seq_len, unit, t.schedule, base.parallel.pp)
                                         : auto_global_batch_rule_msg(gpus_, t.seq_len, unit);
    params_ = count_params(base_.model);
    tensors_ = tensor_list(base_.model);
    const bool moe = base_.model.is_moe();
    // Every (tp, pp, cp, dp, ep), each with every expert TP degree (MoE: the divisors of tp, the rule's
    // etp ≤ tp) and, where cp > 1, every CP method (vocabulary.hpp cp_method_rows).
    const std::size_t own_method = static_cast<std::size_t>(base_.parallel.cp_method);
    for (std::int64_t tp : detail::divisors(gpus_))
        for (std::int64_t pp : detail::divisors(gpus_ / tp))
            for (std::int64_t cp : detail::divisors(gpus_ / (tp * pp))) {
                const std::int64_t dp = gpus_ / (tp * pp * cp);
                for (std::int64_t ep : moe ? detail::divisors(dp * cp) : std::vector<std::int64_t>{1})
                    for (std::int64_t etp : moe ? detail::divisors(tp) : std::vector<std::int64_t>{1})
                        for (std::size_t m = 0; m < cp_method_rows.size(); ++m)
                            if ((cp > 1 || m == own_method) && (!o.holds(plan_knob::cp) || (cp == base_.parallel.cp && m == own_method)))
                                layouts_.push_back({tp, pp, cp, dp, ep, etp, m});
            }
    progress_.groups_total = static_cast<std::int64_t>(layouts_.size());
    for (std::size_t i = 0; i < layouts_.size(); ++i) layout_ids_.push_back(static_cast<std::int64_t>(i));
    // The scenario's own plan (a published run's layout, say) is timed in full, never pruned.
    baseline_ = plan_choice_of(base);
    baseline_valid_ = base.parallel.world() == gpus_;
}

namespace {

// The costs a schedule is timed at once, F = 1: the timing at c is that one scaled by F.
pipeline_costs unit_costs(const pipeline_costs& c) {
    pipeline_costs unit = c;
    unit.B /= c.F, unit.W /= c.F, unit.p2p_s /= c.F, unit.FB = c.FB < 0 ? -1 : c.FB / c.F, unit.F = 1;
    return unit;
}

}  // namespace

plan_search::pipe_key plan_search::pipe_key_of(const schedule_request& q, const pipeline_costs& c) {
    return {static_cast<int>(q.kind), q.ranks, q.microbatches, q.vpp, c.B / c.F, c.W / c.F, c.p2p_s / c.F, c.fb() / c.F};
}

// timing_of simulates a schedule of more than one rank up to options.simulate_ops ops (and
// time_pipeline up to max_schedule_ops); the closed forms time the rest.
bool plan_search::simulates(const schedule_request& q) const {
    const double ops = schedule_op_estimate(q);
    return q.ranks > 1 && ops <= static_cast<double>(opt_.simulate_ops) && ops <= static_cast<double>(max_schedule_ops);
}

// The request's schedule, generated once while the requests for it come in a row (the plans of one
// table and micro-batch, bound and then simulated).
const pipeline_schedule& plan_search::schedule_of(const schedule_request& q) {
    const shape_key key{static_cast<int>(q.kind), q.ranks, q.microbatches, q.vpp};
    if (!schedule_ || schedule_->first != key) schedule_.emplace(key, generate_schedule(q));
    return schedule_->second;
}

// At most timing_of(q, c).bubble_s for a schedule timing_of simulates: the schedule's bubble bound
// (pipeline_bound.hpp) at the unit costs it would simulate, scaled by F as its result is
// (multiplying by F > 0 keeps the order).
double plan_search::bubble_floor(const schedule_request& q, const pipeline_costs& c) {
    const shape_key key{static_cast<int>(q.kind), q.ranks, q.microbatches, q.vpp};
    auto it = bubble_bounds_.find(key);
    if (it == bubble_bounds_.end()) it = bubble_bounds_.emplace(key, bubble_bound_of(schedule_of(q))).first;
    return bubble_lower_bound(it->second, unit_costs(c)) * c.F;
}

pipeline_timing plan_search::timing_of(const schedule_request& q, const pipeline_costs& c) {
    const pipe_key key = pipe_key_of(q, c);
    auto it = pipe_cache_.find(key);
    if (it == pipe_cache_.end()) {
        ++misses_;
        const pipeline_costs unit = unit_costs(c);  // time once with F = 1, scale on every use
        const bool large = schedule_op_estimate(q) > static_cast<double>(opt_.simulate_ops);
        // time_pipeline's simulated branch on the schedule bubble_floor generated just before
        pipeline_timing t = simulates(q) ? time_schedule(schedule_of(q), unit) : large ? closed_form_pipeline(q, unit) : time_pipeline(q, unit);
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
    if (in_baseline_layout_ && (!baseline_best_ || ranks_before(e, *baseline_best_))) baseline_best_ = e;
    keep(e);
    layout_best_s_ = std::min(layout_best_s_, listed_time_of(e.choice));  // e is of the layout being searched
}

void plan_search::keep(const plan_entry& e) {
    ++search_version_;
    fastest_s_ = std::min(fastest_s_, e.time_s);
    // The top list keeps one plan per layout (dp, tp, pp, cp, ep): its fastest. A plan of a listed
    // layout replaces that entry only when it ranks before it (which then also ranks before the
    // list's last, so the pruning bound below stays valid).
    const auto same = std::find_if(best_.begin(), best_.end(), [&](const plan_entry& b) { return b.choice.same_layout(e.choice); });
    if (same != best_.end()) {
        if (ranks_before(e, *same)) {
            *same = e;
            std::make_heap(best_.begin(), best_.end(), ranks_before);
        }
    }
    // A plan with the step time and memory of a listed one tells the reader nothing new (e.g.
    // selective recompute under FlashAttention, which changes neither): the first stays.
    const bool repeat = same != best_.end() ||
        std::any_of(best_.begin(), best_.end(), [&](const plan_entry& b) { return b.time_s == e.time_s && b.memory_bytes == e.memory_bytes; });
    if (!repeat && static_cast<std::int64_t>(best_.size()) < opt_.top) {
        best_.push_back(e);
        std::push_heap(best_.begin(), best_.end(), ranks_before);
    } else if (!repeat && !best_.empty() && ranks_before(e, best_.front())) {
        std::pop_heap(best_.begin(), best_.end(), ranks_before);
        best_.back() = e;
        std::push_heap(best_.begin(), best_.end(), ranks_before);
    }
    // Pareto front by memory ascending, time strictly descending.
    for (const auto& f : front_)
        if (f.memory_bytes <= e.memory_bytes && f.time_s <= e.time_s) return publish_bounds(false);
    std::erase_if(front_, [&](const plan_entry& f) { return f.memory_bytes >= e.memory_bytes && f.time_s >= e.time_s; });
    front_.insert(
        std::lower_bound(front_.begin(), front_.end(), e, [](const plan_entry& a, const plan_entry& b) { return a.memory_bytes < b.memory_bytes; }),
        e);
    front_points_.clear();
    for (const auto& f : front_) front_points_.emplace_back(f.memory_bytes, f.time_s);
    publish_bounds(true);
}

// A plan slower than pareto_window × the fastest one so far stays out of the final front's window
// (the fastest only gets faster), and no plan outside the window dominates one inside it, so the
// front within the window is the same with or without such plans.
bool plan_search::past_window(double lb) const { return lb > pareto_window * std::min(fastest_s_, others_fastest_s_); }

void plan_search::publish_bounds(bool front_changed) const {
    if (!shared_) return;
    if (static_cast<std::int64_t>(best_.size()) >= opt_.top && !best_.empty()) shared_bounds::lower(shared_->kth_s, best_.front().time_s);
    shared_bounds::lower(shared_->fastest_s, fastest_s_);
    if (front_changed) shared_->publish_front(part_, front_points_);
}

// Tighter bounds from the other parts prune more: the thresholds derived from the lists are
// renewed (search_version_) when they change.
void plan_search::read_shared_bounds() {
    if (!shared_) return;
    const double kth = shared_->kth_s.load(std::memory_order_relaxed), fastest = shared_->fastest_s.load(std::memory_order_relaxed);
    const std::uint64_t version = shared_->front_version.load(std::memory_order_acquire);
    if (kth == others_kth_s_ && fastest == others_fastest_s_ && version == others_front_version_) return;
    if (version != others_front_version_) others_front_ = shared_->others(part_), others_front_version_ = version;
    others_kth_s_ = kth, others_fastest_s_ = fastest;
    ++search_version_;
}

// Whether no plan of step time ≥ lb can enter the top K by time: a top K is strictly faster (this
// part's, full, or another part's, which holds K layouts; layouts are split between parts, so none
// of those K is the plan's own), or the plan's own layout already has a strictly faster plan. The
// list keeps one plan per layout, so such a plan could only replace its layout's entry, which it
// does not beat; and once that entry leaves a full list, the list's last is at least as fast. This
// is what prunes while the list is not full: with --top 1000 on fewer fitting layouts, it never is.
bool plan_search::top_faster_than(double lb) const {
    return lb > others_kth_s_ || lb > layout_best_s_ ||
        (static_cast<std::int64_t>(best_.size()) >= opt_.top && !best_.empty() && lb > best_.front().time_s);
}

// The time of the listed plan of the layout (dp, tp, pp, cp, ep) being searched, if any: the
// layouts that differ in etp or the CP method share one entry.
double plan_search::listed_time_of(const plan_choice& layout) const {
    const auto same = std::find_if(best_.begin(), best_.end(), [&](const plan_entry& b) { return b.choice.same_layout(layout); });
    return same == best_.end() ? std::numeric_limits<double>::infinity() : same->time_s;
}

// Whether a plan of step time ≥ lb cannot enter the top K: a top K is faster, or this part's full
// list's last plan ties it and ranks before it (as consider() would test: the same time and no more
// memory, and the earlier search order).
bool plan_search::beyond_top(double memory_bytes, double lb) const {
    if (top_faster_than(lb)) return true;
    if (static_cast<std::int64_t>(best_.size()) < opt_.top || best_.empty()) return false;
    const plan_entry& last = best_.front();
    return lb == last.time_s && memory_bytes >= last.memory_bytes;
}

// Pruning without the pipeline timing. step_time_of adds bubble and exposed P2P to the compute
// time, and both are ≥ 0 (clamped in pipeline_cost_model.cpp, then scaled by F > 0); IEEE
// addition is monotone, so the time with bubble = P2P = 0 is a lower bound `lb` of the plan's
// time, bit for bit. If the top K is full and lb > its last plan's time, or lb equals it and the
// plan's memory is not less, the plan cannot enter it (consider() needs to rank strictly before
// that plan by time, then memory, then search order); if a front member has memory ≤ the plan's and
// time ≤ lb, consider() would reject the plan from the front too. Then evaluating it would
// change neither the top K nor the Pareto front (nor the closest miss, which only non-fitting
// plans touch), so skipping it leaves the result identical. Parts of one search also read the
// other parts' bounds (shared_bounds.hpp), strictly: a plan tied with another part's may be the
// one the merge keeps.
bool plan_search::cannot_place(double memory_bytes, double lb) const {
    if (in_baseline_layout_) return false;  // every plan of the scenario's own layout is timed
    if (!beyond_top(memory_bytes, lb)) return false;
    if (past_window(lb)) return true;
    // The front is sorted by memory ascending and time descending: the last member with memory
    // ≤ the plan's is the fastest of those.
    const auto fastest_within = [&](const std::vector<std::pair<double, double>>& front) {
        auto it =
            std::upper_bound(front.begin(), front.end(), memory_bytes, [](double m, const std::pair<double, double>& f) { return m < f.first; });
        return it == front.begin() ? std::numeric_limits<double>::infinity() : std::prev(it)->second;
    };
    if (fastest_within(front_points_) <= lb) return true;
    // Another part's member must be strictly faster: of exact ties, the merge keeps the earlier plan.
    return !others_front_.empty() && fastest_within(others_front_) < lb;
}

// cannot_place(memory, lb) as a threshold on memory, where a top K (this part's, or another part's
// through shared_bounds) is faster than lb (the case of equal times is left to cannot_place): the
// front's members are ordered by memory ascending and time strictly descending, so those with
// time ≤ lb (another part's: time < lb) are a suffix, and a plan with at least the memory of its
// first member is dominated by it.
double plan_search::cannot_place_from(double lb) const {
    constexpr double never = std::numeric_limits<double>::infinity();
    if (in_baseline_layout_ || !top_faster_than(lb)) return never;
    if (past_window(lb)) return 0;
    const auto it = std::partition_point(front_points_.begin(), front_points_.end(), [&](const auto& f) { return f.second > lb; });
    const double own = it == front_points_.end() ? never : it->first;
    if (others_front_.empty()) return own;
    const auto other = std::partition_point(others_front_.begin(), others_front_.end(), [&](const auto& f) { return f.second >= lb; });
    return std::min(own, other == others_front_.end() ? never : other->first);
}

// Whether a fitting plan of `memory` bytes at the current schedule can be shown, before its own
// model is built, to enter neither the top K nor the front. Every plan's step time is at least
// that of the (layout, micro-batch)'s plan with no recompute at ZeRO 1 and the scenario's optimizer
// offload: recompute only adds work (compute_time.cpp add_layers: p.rec and the experts' 4th
// pass), ZeRO 0 only a larger optimizer shard, the forced offload only host-link and host-CPU
// time, and step_time_of is monotone in each (as for cannot_place's bounds). Offloaded activations
// are the exception, and so is the delayed optimizer update: recompute lengthens the window that
// hides their copy or the update, so with them no floor is taken. Its bounds, cheapest first:
// compute alone, then over the EP and CP axes. cannot_place only turns from false to true as plans
// are considered, so a threshold stays valid; it is renewed when the lists changed.
bool plan_search::floor_prunes(scenario& s, micro_batch_state& mbs, double memory) {
    floor_state& f = mbs.floor[head_class(s)];
    const std::size_t dual = bound_index(s.training.schedule);
    if (floor_settles(f, memory, dual)) return true;  // most fitting plans end here (or in search_recompute's copy of this test)
    if (in_baseline_layout_ || base_.training.offload.activations > 0 || base_.training.offload.delayed_update) return false;
    if (!f.model) {
        const auto saved = std::tuple{s.training.recompute, s.parallel.zero, s.training.offload.optimizer};
        s.training.recompute = recompute_kind::none, s.parallel.zero = 1, s.training.offload.optimizer = base_.training.offload.optimizer;
        if (!mbs.imbalance) mbs.imbalance = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts}).imbalance_used;
        f.model = compute_model(s, {}, mbs);
        std::tie(s.training.recompute, s.parallel.zero, s.training.offload.optimizer) = saved;
    }
    const auto renew = [&] {
        f.version = search_version_;
        f.compute = cannot_place_from(f.model->bound_compute_s);
        f.settles_from = {f.compute, f.compute};
        if (f.model->ep_cp)
            f.settles_from = {std::min(f.compute, cannot_place_from(f.model->ep_cp->plain)),
                              std::min(f.compute, cannot_place_from(f.model->ep_cp->dual))};
    };
    if (f.version != search_version_) renew();
    if (memory >= f.compute) return true;
    if (!f.model->ep_cp) {
        f.model->ep_cp = bounds_over(f.model->compute, ep_cp_of(s, mbs, *f.model), *mbs.imbalance);
        renew();
    }
    return memory >= f.settles_from[dual];  // memory < f.compute here: the EP and CP threshold decides
}

bool plan_search::advance(std::int64_t budget, plan_time deadline) {
    const plan_time start = clock_now(opt_.clock);
    const std::int64_t stop_at = progress_.considered + std::max<std::int64_t>(1, budget);
    deadline_ = deadline;
    while (!progress_.done && !stopped_ && progress_.considered < stop_at && more_layouts() && !past_deadline()) {
        read_shared_bounds();
        layout_id_ = layout_ids_[next_], layout_first_ = progress_.evaluated;
        const layout& l = layouts_[next_];
        layout_best_s_ = listed_time_of(plan_choice{.dp = l.dp, .tp = l.tp, .pp = l.pp, .ep = l.ep, .cp = l.cp});
        search_layout(layouts_[next_++]);
        if (stopped_) break;  // the deadline passed inside the layout: it stays uncounted and the search over
        ++progress_.groups_done;
        if (progress_.evaluated >= opt_.max_candidates && more_layouts()) progress_.capped = true;
        if (progress_.capped || !more_layouts()) progress_.done = true;
    }
    if (layouts_.empty() && !more_layouts()) progress_.done = true;
    elapsed_s_ += seconds_between(start, clock_now(opt_.clock));
    return progress_.done || stopped_;
}

// Compute at vpp 1 and the bound cannot_place() takes first. Of everything the planner reads, vpp
// enters only the per-chunk costs (split_chunks, compute.hpp) and the PP send/recv count
// (comm_inventory.cpp); model_at() evaluates both at each vpp. estimate_compute reads the ZeRO stage
// only as zero ≥ 1 (the optimizer step's shard), so stages 1-3 share one estimate. The layer times
// under it are the micro-batch's (time_stage_layers: no recompute, ZeRO or offload in them).
const stage_layer_times& plan_search::layer_times_of(const scenario& s) {
    const auto& q = s.parallel;
    const stage_split st = busiest_stage(s);
    const auto method = static_cast<std::size_t>(q.cp_method);
    const layer_key key{q.tp, q.cp, method, q.ep, q.etp, s.training.micro_batch, st.layers > st.moe_layers, st.moe_layers > 0};
    auto it = layer_times_.find(key);
    if (it == layer_times_.end()) it = layer_times_.emplace(key, time_stage_layers(s)).first;
    assert(it->second == time_stage_layers(s));  // the key holds everything they read
    return it->second;
}

plan_search::cached_model plan_search::compute_model(scenario& s, const zero_models& done, micro_batch_state& mbs) {
    cached_model cm;
    const auto sharded = std::find_if(done.begin() + 1, done.end(), [](const auto& d) { return d.has_value(); });
    if (s.parallel.zero >= 1 && sharded != done.end()) {
        cm.compute = (*sharded)->compute;
    } else {
        const std::int64_t v = s.parallel.vpp;
        s.parallel.vpp = 1;
        if (!mbs.layers) mbs.layers = &layer_times_of(s);
        cm.compute = estimate_compute_time(s, params_, *mbs.layers);  // the search reads times only; one model, counted once
        s.parallel.vpp = v;
    }
    // step_time_of adds exposed communication (≥ 0) to this sum; IEEE addition is monotone.
    cm.bound_compute_s = step_time_of(cm.compute, 0, 0, {}, *mbs.imbalance);
    return cm;
}

// The model at the plan's vpp: per-chunk costs and the communication inventory, each from the
// report's own function, built once per vpp.
const plan_search::vpp_model& plan_search::model_at(scenario& s, const mesh_layout& mesh, cached_model& cm) const {
    const std::int64_t v = s.parallel.vpp;
    for (const auto& m : cm.by_vpp)
        if (m.vpp == v) return m;
    vpp_model m{.vpp = v, .compute = cm.compute};
    split_chunks(m.compute, v);
    step_comm comm = step_comm_of(s, mesh, params_, m.compute, s.training.microbatches(s.parallel), false);  // the report's rule
    m.pp_exposed_s = pp_transfer_exposed_s(comm.inventory);
    m.chunk_comm = comm.per_microbatch;
    m.axes = axis_totals(comm.inventory);
    cm.by_vpp.push_back(std::move(m));
    return cm.by_vpp.back();
}

// Dropping axes from the bound keeps it a bound: step_time_of adds exposed times (each ≥ 0) in axis
// order, and IEEE addition is monotone in each operand.
plan_search::step_bounds plan_search::bounds_over(const compute_estimate& c, std::vector<axis_comm> axes, double imbalance) {
    step_bounds b;
    b.plain = step_time_of(c, 0, 0, axes, imbalance);
    // F&B pairs hide at most the whole EP axis (ep_hidden_s ≤ its exposed time): a bound at every m.
    take_ep_hidden(axes, std::numeric_limits<double>::infinity());
    b.dual = step_time_of(c, 0, 0, axes, imbalance);
    return b;
}

namespace {

// The EP and CP axes among all of an inventory's (the debug check of ep_cp_of's argument).
[[maybe_unused]] std::vector<axis_comm> ep_cp_axes(const std::vector<axis_comm>& axes) {
    std::vector<axis_comm> out;
    std::copy_if(axes.begin(), axes.end(), std::back_inserter(out), [](const axis_comm& a) { return a.axis == "ep" || a.axis == "cp"; });
    return out;
}

}  // namespace

// The mesh of the layout (its summary: what the communication reads), built when a plan first
// needs its communication.
const mesh_layout& plan_search::mesh_of(const scenario& s, micro_batch_state& mbs) const {
    if (!*mbs.mesh) *mbs.mesh = mesh_summary(mesh_spec_of(s));
    return **mbs.mesh;
}

// The EP and CP axes of a (layout, micro-batch) are the same under every recompute mode, ZeRO stage
// and optimizer offload: add_ep reads the micro-batches, the stage's MoE layers, overlap.ep, the EP
// group and the dispatch bytes (moe_traffic: tokens, top-k, hidden, GEMM dtype); add_cp the context
// traffic (context.hpp: layout, sequence, micro-batch, heads, activations dtype) and overlap.cp;
// apply_cp_overlap the attention kernel times (time_stage_layers). None of them reads recompute,
// ZeRO, offload or vpp, and the TP and DP overlap passes touch their own axes only. So they are
// built once per micro-batch, from its EP and CP items alone (ep_cp_axes_of, step_model.hpp).
const std::vector<axis_comm>& plan_search::ep_cp_of(const scenario& s, micro_batch_state& mbs, const cached_model& cm) const {
    if (!mbs.ep_cp) mbs.ep_cp = ep_cp_axes_of(s, mesh_of(s, mbs), params_, cm.compute);
    return *mbs.ep_cp;
}

// The communication at vpp 1 and the bounds with it. step_time_of reads step_compute_s,
// expert_step_s and the non-PP axes, none of which depends on vpp: the bounds hold at every vpp.
void plan_search::add_comm(scenario& s, micro_batch_state& mbs, cached_model& cm) const {
    const std::int64_t v = s.parallel.vpp;
    s.parallel.vpp = 1;
    const vpp_model& m = model_at(s, mesh_of(s, mbs), cm);
    s.parallel.vpp = v;
    cm.comm = bounds_over(cm.compute, m.axes, *mbs.imbalance);
    assert(ep_cp_axes(m.axes) == ep_cp_of(s, mbs, cm));  // the argument at ep_cp_of
}

// cannot_place's bounds, cheapest first: compute alone; the step over the micro-batch's EP and CP
// axes; the plan's own communication.
bool plan_search::may_place(scenario& s, double memory_bytes, cached_model& cm, micro_batch_state& mbs) {
    if (cannot_place(memory_bytes, cm.bound_compute_s)) return false;
    const schedule_kind k = s.training.schedule;
    if (cm.by_vpp.empty()) {
        if (!cm.ep_cp) cm.ep_cp = bounds_over(cm.compute, ep_cp_of(s, mbs, cm), *mbs.imbalance);
        if (cannot_place(memory_bytes, cm.ep_cp->of(k))) return false;
        add_comm(s, mbs, cm);
    }
    return !cannot_place(memory_bytes, cm.comm.of(k));
}

void check_plan_gpus(const scenario& s, const plan_options& o) {
    const std::int64_t gpus = o.gpus > 0 ? o.gpus : s.parallel.world();
    if (gpus > max_plan_gpus)
        throw input_error(o.gpus > 0 ? "options.gpus" : "parallel",
                          msg("plan.gpus_over_limit", {{"gpus", fmt::format("{}", gpus)}, {"limit", fmt::format("{}", max_plan_gpus)}}));
}

}  // namespace tslab
