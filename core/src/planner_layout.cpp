// The planner's walk over one layout: micro-batch, recompute, schedule/vpp and ZeRO, in that order.
// Every valid plan gets its exact memory total, assembled from parts hoisted to the loop level they
// depend on (memory.hpp); a fitting plan is timed in full only when its step-time bound says it
// could still enter the top K or the Pareto front (planner.cpp, cannot_place). Layouts that differ
// only in the CP method replay the first one's memory (plan_search::memory_memo).
#include <algorithm>
#include <array>
#include <cassert>
#include <optional>

#include "tslab/errors.hpp"
#include "tslab/expert.hpp"
#include "tslab/memory.hpp"
#include "tslab/planner.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/step_model.hpp"

namespace tslab {

namespace {

// (schedule, vpp) pairs: every schedule row that allows pp stages (min_pp; the other preconditions,
// schedule_rules.hpp, are checked per plan by schedule_rules_hold), once, or with each vpp ≥ 2 that
// cuts a stage's ⌈L/pp⌉ layers into equal chunks where the row's chunks are parallel.vpp. Megatron
// sets the interleaving by --num-layers-per-virtual-pipeline-stage, so v always divides the layers
// per stage; a chunk is whole layers, and the pipeline's chunk costs are equal (pipeline_sim.hpp),
// which a v that leaves chunks of ⌊S/v⌋ and ⌈S/v⌉ layers would misstate.
std::vector<std::pair<schedule_kind, std::int64_t>> schedule_choices(std::int64_t pp, std::int64_t layers) {
    std::vector<std::pair<schedule_kind, std::int64_t>> out;
    const std::int64_t stage = (layers + pp - 1) / pp;
    for (const schedule_desc& d : schedule_rows) {
        if (pp < d.min_pp) continue;
        if (d.chunks != chunks_rule::vpp)
            out.push_back({d.kind, 1});
        else
            for (std::int64_t v = 2; pp * v <= layers; ++v)  // no chunk without a layer (scenario_rules.cpp)
                if (stage % v == 0) out.push_back({d.kind, v});
    }
    return out;
}

// The knobs' values come from their rows (vocabulary.hpp): recompute modes in search order, ZeRO stages.
constexpr auto recompute_modes = recompute_search_order();
constexpr std::size_t zero_stages = zero_stage_rows.size();

using zero_totals = std::array<double, zero_stages>;

// The HBM total of the most loaded class at each ZeRO stage: state + activations (layers, other)
// + buffers (memory.hpp), state and buffers as class_table lays them out. Each stage's sum is
// stage_total's, in its order; the four run side by side (vectorisable), the max kept per stage.
zero_totals largest_stage_totals(const double* state, const double* layers, const double* other, const double* buffers, std::size_t classes) {
    zero_totals memory{};
    for (std::size_t c = 0; c < classes; ++c)
        for (std::size_t z = 0; z < zero_stages; ++z) {
            const double b = detail::stage_total(state[c * zero_stages + z], layers[c], other[c], buffers[c * zero_stages + z]);
            memory[z] = c == 0 ? b : std::max(memory[z], b);
        }
    return memory;
}

}  // namespace

// Plans per (layout, micro-batch, schedule/vpp): every ZeRO stage and recompute mode, or the
// scenario's alone where options.fixed holds it.
std::int64_t plan_search::plans_per_schedule(const plan_options& o) {
    const std::size_t zeros = o.holds(plan_knob::zero) ? 1 : zero_stages;
    const std::size_t modes = o.holds(plan_knob::recompute) ? 1 : std::size(recompute_modes);
    return static_cast<std::int64_t>(zeros * modes);
}

// The classes and their model state depend on the layout, the chunk placement and the ZeRO stage
// only (memory.cpp: layers_of reads the shape's rank chunks, local_shards and rank_state_of the
// layout): listed once per layout and placement, when a schedule of it first passes the rules.
std::size_t plan_search::class_table_of(scenario& s, layout_tables& lt, const schedule_table& t) {
    const schedule_desc& d = describe(t.kind);
    const std::int64_t chunks = chunks_per_rank(d, t.vpp);
    for (std::size_t i = 0; i < lt.classes.size(); ++i)
        if (lt.classes[i].placement == d.placement && lt.classes[i].chunks == chunks) return i;
    // The classes depend on (tp, pp, ep, etp, placement), not on cp or dp (memory.cpp, local_shards):
    // layouts come ordered by tp, then pp, so one cache per (tp, pp) serves every cp, dp and ep.
    if (classes_of_ != std::pair{s.parallel.tp, s.parallel.pp}) class_cache_.clear(), classes_of_ = {s.parallel.tp, s.parallel.pp};
    const auto key = std::tuple{s.parallel.ep, s.parallel.etp, static_cast<int>(d.placement), chunks};
    auto it = class_cache_.find(key);
    if (it == class_cache_.end())
        it = class_cache_.emplace(key, detail::stage_classes(s, closed_form_shape(t.kind, s.parallel.pp, t.vpp, 1), tensors_)).first;
    class_table c{.placement = d.placement, .chunks = chunks, .classes = &it->second};
    const std::size_t n = zero_stages * c.classes->size();
    c.state.resize(n), c.state_offloaded.resize(n), c.buffers.resize(n);
    for (std::size_t z = 0; z < zero_stages; ++z) {
        s.parallel.zero = static_cast<int>(z);
        for (std::size_t k = 0; k < c.classes->size(); ++k) {
            detail::rank_state st = detail::rank_state_of(s, (*c.classes)[k].shards);
            c.state[k * zero_stages + z] = st.total();
            st.keep = 0;  // the whole master copy and optimizer states in host memory (offload.hpp)
            c.state_offloaded[k * zero_stages + z] = st.total();
        }
    }
    lt.classes.push_back(std::move(c));
    return lt.classes.size() - 1;
}

void plan_search::search_layout(const layout& l) {
    scenario s = base_;
    auto& q = s.parallel;
    q.tp = l.tp, q.pp = l.pp, q.cp = l.cp, q.dp = l.dp, q.ep = l.ep, q.vpp = 1, q.etp = l.etp;
    q.cp_method = cp_method_rows[l.cp_method].kind;
    // Sequence parallelism whenever tp > 1: it moves the same bytes as the AllReduce it replaces
    // (ReduceScatter + AllGather) and shrinks both the norm/dropout work and their activations by tp
    // (Korthikanti et al., arXiv 2205.05198 section 4.2.2), so no plan without it can be better.
    q.sp = l.tp > 1 && (!opt_.holds(plan_knob::sp) || base_.parallel.sp);
    // Likewise the chunked TP overlap (tp_overlap.hpp) only hides SP collectives under their GEMMs,
    // as CP's ring passes hide under attention: without it TP would pay in full what CP hides.
    // A fixed training.overlap.tp fraction in the scenario is kept instead (the two exclude each other).
    // options.fixed holds what the scenario says (plan_options::fixed).
    const bool tp_comm_free = l.tp > 1 && base_.training.overlap.tp == 0 && !opt_.holds(plan_knob::tp_overlap);
    s.training.overlap.tp_comm = tp_comm_free ? true : base_.training.overlap.tp_comm;
    in_baseline_layout_ =
        baseline_valid_ && baseline_.dp == l.dp && baseline_.tp == l.tp && baseline_.pp == l.pp && baseline_.cp == l.cp && baseline_.ep == l.ep;
    const std::int64_t G = s.training.global_batch;
    if (G % l.dp != 0) return;  // no micro-batch size divides the batch: nothing to consider
    try {
        validate_mesh_spec(mesh_spec_of(s));
    } catch (const input_error&) {
        return;  // the scenario's axis order cannot place this layout
    }
    // Both caches are keyed on tp first and layouts come ordered by tp: entries of another tp are
    // never read again, and a small table stays in cache (a large one costs a cache miss per lookup).
    if (l.tp != caches_tp_) layer_times_.clear(), act_terms_.clear(), caches_tp_ = l.tp;
    // Built when a plan first needs its model, kept while the degrees stay (plan_search::mesh_).
    if (const std::array degrees{l.tp, l.pp, l.cp, l.dp, l.ep}; degrees != mesh_degrees_) mesh_.reset(), mesh_degrees_ = degrees;
    const std::vector<std::int64_t> micro_batches = detail::divisors(G / l.dp);
    const auto choices = schedule_choices(l.pp, s.model.layers);
    if (!layout_rules_hold(s)) {  // no plan of the layout is valid: its combinations are only counted
        progress_.considered += static_cast<std::int64_t>(micro_batches.size() * choices.size()) * plans_per_schedule(opt_);
        return;
    }
    layout_tables tables;
    for (const auto& [kind, v] : choices) {
        s.training.schedule = kind;
        tables.schedules.push_back({.kind = kind, .vpp = v, .head_class = head_class(s)});
    }
    tables.classes.reserve(tables.schedules.size());
    replaying_ = begin_memo({l.tp, l.pp, l.cp, l.dp, l.ep, l.etp}, micro_batches.size(), choices.size());
    for (std::size_t i = 0; i < micro_batches.size(); ++i) {
        if (stopped_) return;  // place() found the deadline passed
        s.training.micro_batch = micro_batches[i];
        micro_batch_state mbs{.m = G / (micro_batches[i] * l.dp), .mesh = &mesh_};
        memo_mb_ = i;
        if (replaying_)
            replay_micro_batch(tables);
        else
            prepare_micro_batch(s, tables, mbs.m);
        for (std::size_t r = 0; r < std::size(recompute_modes); ++r) {
            if (stopped_) return;
            const recompute_kind rec = recompute_modes[r];
            if (opt_.holds(plan_knob::recompute) && rec != base_.training.recompute) continue;
            s.training.recompute = rec;
            memo_mode_ = r;
            search_recompute(s, tables, mbs);
        }
    }
    if (!stopped_) memo_.complete = true;  // a whole pass (a replay leaves it as it was)
}

// Whether a layout of these degrees replays memo_ (filled by a whole pass over the same degrees);
// if not, memo_ is sized for the layout to record.
bool plan_search::begin_memo(const std::array<std::int64_t, 6>& degrees, std::size_t micro_batches, std::size_t schedules) {
    if (memo_.complete && memo_.layout == degrees) return true;
    memo_.layout = degrees, memo_.complete = false, memo_.schedules = schedules;
    memo_.valid.assign(micro_batches * schedules, 0);
    const std::size_t slots = micro_batches * std::size(recompute_modes) * schedules;
    memo_.totals.resize(slots), memo_.offloaded.resize(slots);
    memo_.has_offloaded.assign(slots, 0);
    return false;
}

// prepare_micro_batch for a layout whose memory memo_ holds: the same counts and rules' verdicts.
void plan_search::replay_micro_batch(layout_tables& lt) {
    for (std::size_t i = 0; i < lt.schedules.size(); ++i) {
        progress_.considered += plans_per_schedule(opt_);
        lt.schedules[i].valid = memo_.valid[memo_mb_ * memo_.schedules + i] != 0;
    }
}

// What depends on (schedule, micro-batch) but not on recompute or ZeRO: the rules (no rule reads
// either; scenario_rules.cpp), the in-flight counts (closed forms of m) and the buffers per stage.
// The layout's own rules held (search_layout): the schedule's part decides.
void plan_search::prepare_micro_batch(scenario& s, layout_tables& lt, std::int64_t m) {
    for (std::size_t i = 0; i < lt.schedules.size(); ++i) {
        schedule_table& t = lt.schedules[i];
        progress_.considered += plans_per_schedule(opt_);
        s.training.schedule = t.kind;
        s.parallel.vpp = t.vpp;
        t.valid = schedule_rules_hold(s);
        memo_.valid[memo_mb_ * memo_.schedules + i] = t.valid;
        if (!t.valid) continue;
        if (t.classes == no_table) t.classes = class_table_of(s, lt, t);
        class_table& c = lt.classes[t.classes];
        const auto& classes = *c.classes;
        t.inflight.resize(classes.size());
        for (std::size_t k = 0; k < classes.size(); ++k) t.inflight[k] = detail::class_inflight(classes[k], t.kind, s.parallel.pp, t.vpp, m);
        if (c.buffers_at == s.training.micro_batch) continue;  // no buffer reads the schedule (rank_buffers_of)
        c.buffers_at = s.training.micro_batch;
        // The buffers read the ZeRO stage only as whether it gathers parameters (the gather of two
        // layers): one call per class at the last stage gives every stage's total, the same sum as a
        // call at each stage.
        s.parallel.zero = zero_stage_rows.back().stage;
        for (std::size_t k = 0; k < classes.size(); ++k) {
            detail::rank_buffers b = detail::rank_buffers_of(s, classes[k].shards);
            const double gathered = b.total();
            b.zero3 = false;
            for (std::size_t z = 0; z < zero_stages; ++z) c.buffers[k * zero_stages + z] = zero_stage_rows[z].gathers_params ? gathered : b.total();
        }
    }
}

// One (layout, micro-batch, recompute): every valid schedule/vpp and ZeRO stage. The memory total
// is the largest over the classes of state + activations + buffers (memory.hpp); compute and
// communication are built per ZeRO stage when a plan first fits, shared by every schedule/vpp.
void plan_search::search_recompute(scenario& s, const layout_tables& lt, micro_batch_state& mbs) {
    const detail::activation_terms* act = replaying_ ? nullptr : &activation_terms_at(s);
    const double hbm = s.cluster.gpu.hbm_bytes;
    // Kept in the search and emptied here: fresh ones would be zero-filled (5.4 KB) per call.
    for (auto& z : models_)
        for (auto& m : z) m.reset();
    // The in-flight-independent part of each class's activations, once per class table.
    rates_.resize(lt.classes.size());
    for (auto& r : rates_) r.clear();
    for (std::size_t i = 0; i < lt.schedules.size(); ++i) {
        const schedule_table& t = lt.schedules[i];
        if (!t.valid || stopped_) continue;
        s.training.schedule = t.kind;
        s.parallel.vpp = t.vpp;
        const std::size_t slot = memo_slot(i), cls = t.head_class;
        zero_models& models = models_[cls];
        zero_models& offloaded_models = models_[2 + cls];
        if (!replaying_) memo_.totals[slot] = schedule_totals(s, lt, t, *act);
        const zero_totals& totals = memo_.totals[slot];
        const std::size_t dual = bound_index(t.kind);
        for (std::size_t z = 0; z < totals.size(); ++z) {
            if (opt_.holds(plan_knob::zero) && static_cast<int>(z) != base_.parallel.zero) continue;
            ++progress_.evaluated;
            const double memory = totals[z];
            s.parallel.zero = static_cast<int>(z);
            if (hbm - memory >= 0) {
                // floor_prunes' first test, without the call (most plans end here)
                if (floor_settles(mbs.floor[cls], memory, dual))
                    ++progress_.fitting;
                else
                    settle_fitting(s, memory, models, mbs);
                continue;
            }
            // Only where the plan misses HBM: the optimizer states offloaded to the host, which costs
            // host-link and host-CPU time every step (offload.hpp), so a plan that fits without it
            // never needs it.
            // A replay misses where its recording did, so the recording formed them there.
            if (!memo_.has_offloaded[slot]) {
                assert(!replaying_);
                const class_table& ct = lt.classes[t.classes];
                memo_.offloaded[slot] =
                    largest_stage_totals(ct.state_offloaded.data(), layers_.data(), other_.data(), ct.buffers.data(), ct.classes->size());
                memo_.has_offloaded[slot] = 1;
            }
            const double offloaded = memo_.offloaded[slot][z];
            const double given = s.training.offload.optimizer;
            if (given < 1 && hbm - offloaded >= 0 && !opt_.holds(plan_knob::offload)) {
                s.training.offload.optimizer = 1;
                settle_fitting(s, offloaded, offloaded_models, mbs);
                s.training.offload.optimizer = given;
                continue;
            }
            // consider() keeps the first plan that misses by the least; it is reported only when no
            // plan fits, so once one has, misses are only counted.
            if (progress_.fitting == 0 && (!closest_ || hbm - memory > closest_->headroom_bytes)) consider(entry_of(s, memory));
        }
    }
}

// The four ZeRO stages' totals of one schedule, in one tight loop; its activations by class stay in
// layers_ and other_ for the offloaded totals.
plan_search::zero_totals plan_search::schedule_totals(const scenario& s, const layout_tables& lt, const schedule_table& t,
                                                      const detail::activation_terms& act) {
    const class_table& ct = lt.classes[t.classes];
    const auto& classes = *ct.classes;
    auto& rates = rates_[t.classes];
    if (rates.empty()) {
        rates.resize(classes.size());
        for (std::size_t c = 0; c < classes.size(); ++c) rates[c] = detail::activation_rates_of(s, classes[c].shards, classes[c].chunks_held, act);
    }
    layers_.resize(classes.size()), other_.resize(classes.size());
    for (std::size_t c = 0; c < classes.size(); ++c) {
        const detail::rank_activation a = detail::rank_activation_at(rates[c], t.inflight[c]);
        layers_[c] = a.layers, other_[c] = a.other;
    }
    return largest_stage_totals(ct.state.data(), layers_.data(), other_.data(), ct.buffers.data(), classes.size());
}

// activation_terms_of reads the sequence, micro-batch, tp, cp, etp, sp and recompute of a plan
// (activation.cpp: activation_dims_of, moe_elems, op_level_bytes; the model and training otherwise
// fixed): layouts that differ in pp, dp or ep share them. Checked against a fresh call in debug builds.
const detail::activation_terms& plan_search::activation_terms_at(const scenario& s) {
    const auto& q = s.parallel;
    const act_key key{q.tp, q.cp, q.etp, s.training.micro_batch, static_cast<int>(s.training.recompute), q.sp};
    auto it = act_terms_.find(key);
    if (it == act_terms_.end()) it = act_terms_.emplace(key, detail::activation_terms_of(s)).first;
    assert(it->second == detail::activation_terms_of(s));  // the key holds everything they read
    return it->second;
}

// A fitting plan: counted, and settled by the (layout, micro-batch)'s floor where it can be (most
// are), else evaluated on its own model.
void plan_search::settle_fitting(scenario& s, double memory_bytes, zero_models& models, micro_batch_state& mbs) {
    if (floor_prunes(s, mbs, memory_bytes))
        ++progress_.fitting;  // as consider() would count it
    else
        evaluate_fitting(s, memory_bytes, models, mbs);
}

// A fitting plan: counted, then timed in full unless a bound shows it can enter neither the top K
// nor the Pareto front (cannot_place, may_place). The mesh and the communication inventory are
// built only when the cheaper bounds do not settle the plan.
void plan_search::evaluate_fitting(scenario& s, double memory_bytes, zero_models& models, micro_batch_state& mbs) {
    if (!mbs.imbalance) mbs.imbalance = expert_ledger(s, {s.training.moe.imbalance, s.training.moe.redundant_experts}).imbalance_used;
    auto& slot = models[static_cast<std::size_t>(s.parallel.zero)];
    if (!slot) slot = compute_model(s, models, mbs);
    if (may_place(s, memory_bytes, *slot, mbs)) return place(s, memory_bytes, *slot, mbs);
    ++progress_.fitting;  // counted as consider() would; it would change nothing else
}

// The full step time of a fitting plan that may enter the top K or the front, then consider().
// Before a schedule is simulated, the step with the bubble's lower bound and no P2P (both ≤ what
// the timing gives; step_time_of is monotone in each, as for cannot_place's bounds) may already
// show that the plan cannot place; a timing the cache holds is used as it is.
void plan_search::place(scenario& s, double memory_bytes, cached_model& cm, const micro_batch_state& mbs) {
    const vpp_model& c = model_at(s, **mbs.mesh, cm);
    const schedule_request sq = scenario_schedule_request(s, mbs.m);
    const pipeline_costs k = chunk_costs(c.compute, sq, c.pp_exposed_s, c.chunk_comm);
    std::vector<axis_comm> axes = c.axes;
    take_ep_hidden(axes, ep_hidden_s(sq, k));  // 0 unless the schedule pairs chunks (DualPipe, DualPipeV)
    if (simulates(sq) && !pipe_cache_.contains(pipe_key_of(sq, k)) &&
        cannot_place(memory_bytes, step_time_of(c.compute, bubble_floor(sq, k), 0, axes, *mbs.imbalance))) {
        ++progress_.fitting;  // counted as consider() would; it would change nothing else
        return;
    }
    // Timing is what a layout spends its time on (one layout can time thousands of plans): a passed
    // deadline ends the search here, before the next timing, rather than after the layout.
    if (past_deadline()) {
        stopped_ = true;
        return;
    }
    ++progress_.timed;
    const pipeline_timing t = timing_of(sq, k);
    plan_entry e = entry_of(s, memory_bytes);
    e.time_s = step_time_of(c.compute, t.bubble_s, t.p2p_exposed_s, axes, *mbs.imbalance);
    consider(e);
}

plan_entry plan_search::entry_of(const scenario& s, double memory_bytes) const {
    plan_entry e;
    e.order = (layout_id_ << 32) + (progress_.evaluated - layout_first_);
    e.choice = plan_choice_of(s);
    e.memory_bytes = memory_bytes;
    e.headroom_bytes = s.cluster.gpu.hbm_bytes - memory_bytes;
    return e;
}

}  // namespace tslab
