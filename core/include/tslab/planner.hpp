// The planner: every valid parallel plan of a scenario's model and cluster on N GPUs (dp, tp, pp,
// vpp, ep, cp, ZeRO stage, micro-batch, recompute, schedule), filtered by HBM, ranked by step time.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "tslab/comm_inventory.hpp"
#include "tslab/compute.hpp"
#include "tslab/expert.hpp"
#include "tslab/memory.hpp"
#include "tslab/mesh.hpp"
#include "tslab/pipeline_bound.hpp"
#include "tslab/pipeline_cost_model.hpp"
#include "tslab/plan_clock.hpp"
#include "tslab/plan_limits.hpp"
#include "tslab/scenario.hpp"
#include "tslab/shared_bounds.hpp"
#include "tslab/step.hpp"

namespace tslab {

// Knobs a search can hold at the scenario's own values (options.fixed) instead of searching them:
// the features a training stack may lack (Megatron-LM in 2021 had no distributed optimizer, no
// sequence parallelism, no chunked TP overlap and no context parallelism; arXiv 2104.04473).
enum class plan_knob : unsigned { zero, recompute, sp, tp_overlap, offload, cp };
struct plan_knob_desc {
    plan_knob knob;
    const char* name;  // options.fixed
};
inline constexpr plan_knob_desc plan_knob_rows[] = {
    {plan_knob::zero, "zero"},       {plan_knob::recompute, "recompute"},
    {plan_knob::sp, "sp"},           {plan_knob::tp_overlap, "tp_overlap"},
    {plan_knob::offload, "offload"}, {plan_knob::cp, "cp"},
};

struct plan_options {
    std::int64_t top = 10;
    std::int64_t gpus = 0;  // 0: the scenario's own world, dp·tp·pp·cp
    // Candidates evaluated before the search stops with a partial result (a clear message says so).
    // The default completes every case the README documents: Kimi K2, the largest search, evaluates
    // 20.1M candidates on 4096 H100 and 45.3M on 65,536 (a few seconds natively).
    std::int64_t max_candidates = 100'000'000;
    // Schedules larger than this many ops are timed by the closed forms during the search (the
    // top entries are then re-timed by the full report, simulator included).
    std::int64_t simulate_ops = 20'000;
    // Wall-clock budget of run_plan in seconds: a search cut short returns what it found, marked
    // capped and partial, with a message naming options.max_seconds.
    double max_seconds = 60;
    // Native builds split the layouts over this many threads (0: one per hardware thread, at most
    // max_plan_threads); the result is the same as one thread's but for candidates_timed and the
    // pipeline cache counts, which depend on what each part had found when it pruned. WebAssembly
    // runs one.
    int threads = 0;
    // plan_knob bits held at the scenario's values: zero (parallel.zero), recompute
    // (training.recompute), sp (parallel.sp where tp > 1), tp_overlap (training.overlap.tp_comm),
    // offload (no optimizer offload beyond the scenario's), cp (parallel.cp and its method).
    unsigned fixed = 0;
    // The clock max_seconds and advance()'s deadline are read on (empty: the steady clock). Not a
    // JSON option: tests inject a clock that ticks per read, so no assertion rests on wall time.
    plan_clock clock;
    bool holds(plan_knob k) const { return (fixed >> static_cast<unsigned>(k) & 1u) != 0; }
};
inline constexpr int max_plan_threads = 64;
// The options of each of `parts` parts of one search: its share of options.max_candidates.
plan_options part_options(const plan_options& o, int parts);

// The Pareto front lists the plans at most this many times the fastest plan's step time. Past it,
// memory is bought with time nobody spends: Kimi K2's front on 4096 H100 ran from 3.6 s to 2,500 s
// per step (cp 256 across nodes at 4 GiB), and timing that tail cost the search most of its work.
inline constexpr double pareto_window = 2;

// max_plan_gpus, the most GPUs a plan is searched for, is in plan_limits.hpp (the vocabulary reads it).
// Throws input_error when the GPUs to plan for exceed max_plan_gpus, before any search work.
void check_plan_gpus(const scenario& s, const plan_options& o);

// {"top", "gpus", "max_candidates", "simulate_ops", "max_seconds", "threads", "fixed"} read
// strictly (input_error at options.<field>; "fixed" is an array of plan_knob_rows names, each once).
plan_options parse_plan_options(const json& doc);
// The same from text; "" gives the defaults, malformed JSON an input_error at "options".
plan_options parse_plan_options_text(const std::string& text);

// The knobs of one candidate; everything else is the scenario's.
struct plan_choice {
    std::int64_t dp = 1, tp = 1, pp = 1, vpp = 1, ep = 1, cp = 1, micro_batch = 1;
    int zero = 0;
    recompute_kind recompute = recompute_kind::none;
    schedule_kind schedule = schedule_kind::one_f_one_b;
    std::int64_t etp = 1;
    std::size_t cp_method = 0;  // row of cp_method_rows
    bool sp = false;
    double offload_optimizer = 0;  // training.offload.optimizer: the scenario's, or 1 where only that fits
    bool tp_comm = false;  // training.overlap.tp_comm
    // The layout the top list keeps distinct: (dp, tp, pp, cp, ep).
    bool same_layout(const plan_choice& o) const { return dp == o.dp && tp == o.tp && pp == o.pp && cp == o.cp && ep == o.ep; }
};

// A choice as the plan result writes it: {"parallel": {dp, tp, pp, vpp, ep, etp, cp, cp_method, sp,
// zero}, micro_batch, recompute, schedule, offload_optimizer, tp_comm}.
json choice_json(const plan_choice& c);

// The knobs a scenario sets, as a plan_choice (the inverse of applying a plan's choice to it).
plan_choice plan_choice_of(const scenario& s);

// A plan against the scenario's own one (the "baseline", e.g. a published run's layout): the step
// time and the segments (step.segments ids) that differ most, largest |Δ| first.
struct segment_delta {
    std::string id, ledger;  // the step segment and its ledger ("L5" for the collectives)
    double delta_s = 0;  // this plan's segment − the baseline's
};
struct versus_baseline {
    double speedup = 0;  // baseline time / this plan's time
    std::vector<segment_delta> largest;  // at most 3
    std::string note;  // "1.27× faster: tp −0.11 s, dp −0.02 s, compute +0.01 s"
};

struct plan_entry {
    plan_choice choice;
    double time_s = 0, memory_bytes = 0, headroom_bytes = 0;  // headroom < 0: over HBM by that much
    std::int64_t order = 0;  // position in the search (layout index · 2^32 + position within it): of equal times the earlier ranks first
    // Filled for the entries shown in `top` and `closest` from the full report of the plan.
    double tokens_per_s = 0, mfu = 0;
    std::string bottleneck_ledger;  // the ledger with the most exposed time among L3..L7
    std::string bottleneck;  // the report's sentence
    std::vector<message> bottleneck_msg;  // its clauses as message ids (messages.hpp)
    std::vector<step_ledger> ledgers;
    double search_memory_bytes = 0;  // the search's own total (memory_bytes is the report's; they agree)
    // Filled by result() for top, pareto and closest: the complete tslab/scenario@1 the plan was
    // ranked with (scenario_json.hpp); its report reproduces time_s and memory_bytes.
    json scenario;
    // Pareto members: true when time_s is the report's (simulated where the search used closed forms),
    // false when result() ran out of its time budget first and kept the search's own time.
    bool time_from_report = true;
    std::vector<step_segment> segments;  // top entries: the report's step segments
    std::optional<versus_baseline> versus;  // top entries, when the scenario's own plan was timed
};

// The scenario's own plan on the searched GPUs: as given (its knobs), and its layout at the best
// knobs the search found for it (every plan of that layout is timed, none pruned), with the
// rank of that layout among the distinct layouts of the top list (0: below the list).
struct plan_baseline {
    plan_choice choice;  // as given
    bool valid = false;  // the scenario's own plan is a plan of the searched GPU count
    double time_s = 0;  // its report's step time as given
    bool fits = false;
    std::vector<step_segment> segments;
    std::optional<plan_entry> best_of_layout;  // the fastest fitting plan of its layout
    std::int64_t layout_rank = 0;
    // The best plan of the top list against best_of_layout: which costs separate the two layouts.
    std::optional<versus_baseline> best_versus_layout;
};

// The counts of a search. Every combination of the knobs is `considered`; those that pass the
// scenario rules form the valid space and are `evaluated`: each gets its own memory ledger total and
// HBM fit test (so `fitting` and the closest miss are exact). A fitting plan then gets lower bounds
// of its step time (compute alone; with the micro-batch's EP and CP traffic; with all its
// communication; with its schedule's bubble lower bound); only plans that could still enter the top
// K or the Pareto front are `timed` in full (pipeline schedule included).
// The others provably change neither list (cannot_place), so the result equals that of timing every
// fitting plan. JSON: candidates_considered, _evaluated, _fitting, _timed.
struct plan_progress {
    std::int64_t considered = 0;  // combinations enumerated (before the rules)
    std::int64_t evaluated = 0;  // valid candidates (passed the rules): memory and fit evaluated
    std::int64_t fitting = 0;  // of those, the ones that fit in HBM
    std::int64_t timed = 0;  // of those, the ones whose full step time was computed
    std::int64_t groups_done = 0, groups_total = 0;  // (tp, pp, cp, dp, ep) layouts searched / in all
    bool done = false, capped = false;
};

struct plan_result {
    std::int64_t gpus = 0;
    // The training shape every candidate was ranked with (global_batch in sequences).
    std::int64_t seq_len = 0, global_batch = 0;
    bool global_batch_default = false;  // chosen by the auto rule (global_batch.hpp), not given by the scenario
    std::string global_batch_rule;  // the rule in words with its numbers, or "set by training.global_batch"
    std::vector<tslab::message> global_batch_rule_msg;  // the same as registered messages (global_batch.hpp)
    bool sp = false;
    plan_progress progress;
    std::vector<plan_entry> top;  // ranks_before order; no two with the same time and memory (at most options.top)
    // Fitting plans no other beats on both memory and time, by memory, within pareto_window × the
    // fastest plan's step time (JSON pareto_window).
    std::vector<plan_entry> pareto;
    std::optional<plan_entry> closest;  // when nothing fits: the plan that misses HBM by the least
    plan_baseline baseline;
    std::string message;  // why the result is partial or empty; "" otherwise
    std::vector<tslab::message> message_msg;  // its clauses as message ids (messages.hpp)
    void say(tslab::message m) { message_msg.push_back(std::move(m)), message = english(message_msg); }
    std::int64_t pipeline_cache_hits = 0, pipeline_cache_misses = 0;
    double elapsed_s = 0;
};

// The search as a resumable state machine (the browser runs it in slices from a Web Worker).
class plan_search {
public:
    // GPU count: options.gpus, else the scenario's world. The layouts are listed here; nothing is
    // evaluated until advance().
    plan_search(const scenario& base, const plan_options& o);
    // One part of the search: the layouts of every `parts`-th (tp, cp, ep), in the order those first
    // appear. The caches a layout fills (its mesh, layer times, activation terms) are keyed on them,
    // so parts split the work without repeating it.
    plan_search(const scenario& base, const plan_options& o, int part, int parts);
    // A part that takes its (tp, cp, ep) groups as it goes, the next one not yet taken by any part
    // (shared_bounds::next_group), so a part that runs slower, or on a busier core, takes fewer: the
    // native threads' work stealing. It must share bounds (share_bounds) before advance().
    struct stealing_t {};
    plan_search(const scenario& base, const plan_options& o, int part, int parts, stealing_t);
    // The parts of one search merged: their counts summed, their lists replayed in search order, as
    // one search would have kept them (plan_search::keep).
    static plan_search merged(std::vector<plan_search>&& parts);
    // Parts running side by side share their bounds through `b` (outliving the search); the
    // result is the same with or without it, only fewer plans are timed in full.
    void share_bounds(shared_bounds* b) { shared_ = b; }
    // A part's state for a merge elsewhere (tslab/plan-part@1: counts, top K, front, closest miss,
    // the baseline layout's best), and the merge of parts 0..n-1 given as that JSON (input_error at
    // parts[k].<field> when one is malformed or belongs to another search).
    json part_json() const;
    static plan_search merged_from_json(const scenario& base, const plan_options& o, const json& parts);
    // Evaluates whole layouts until at least `budget` more candidates were considered, the deadline
    // has passed or the search is over; returns true when it is over (done, capped, or stopped at the
    // deadline). The deadline is tested between layouts and before each plan is timed in full (one
    // layout can time thousands of plans). A search stopped inside a layout is over for good: that
    // layout stays out of groups_done, and progress().done stays false.
    bool advance(std::int64_t budget, plan_time deadline = plan_time::max());
    const plan_progress& progress() const { return progress_; }
    // Ranks, re-times the top entries with the full report and builds the Pareto front. Pareto
    // members whose schedule the report would simulate are re-timed only while seconds_left lasts
    // (run_plan passes what is left of options.max_seconds); the rest keep the search's time.
    plan_result result(double seconds_left = std::numeric_limits<double>::infinity()) const;

private:
    struct layout {
        std::int64_t tp, pp, cp, dp, ep, etp;
        std::size_t cp_method;
    };
    using pipe_key = std::tuple<int, std::int64_t, std::int64_t, std::int64_t, double, double, double, double>;  // + FB / F
    scenario base_;
    plan_options opt_;
    std::int64_t gpus_ = 0;
    int part_ = 0, parts_ = 1;  // this search is part part_ of parts_
    std::vector<message> batch_rule_;  // plan_result::global_batch_rule_msg
    param_counts params_;
    std::vector<tensor_entry> tensors_;
    std::vector<layout> layouts_;
    std::vector<std::int64_t> layout_ids_;  // each layout's index in the whole search's list
    // Work stealing (the stealing_t part): the whole list and its (tp, cp, ep) groups, as indices in
    // first-appearance order; claim_group() appends the next unclaimed group to layouts_.
    std::vector<layout> pool_;
    std::vector<std::vector<std::size_t>> groups_;
    std::vector<std::size_t> layout_groups() const;
    bool claim_group();
    bool more_layouts() { return next_ < layouts_.size() || claim_group(); }
    std::size_t next_ = 0;
    plan_time deadline_ = plan_time::max();  // advance()'s
    bool stopped_ = false;  // the deadline passed inside a layout
    bool past_deadline() const { return deadline_ != plan_time::max() && clock_now(opt_.clock) >= deadline_; }
    // The layout being searched and the evaluated count at its start: a plan's search order is
    // (layout index, position within the layout), whichever part of the search evaluates it.
    std::int64_t layout_id_ = 0, layout_first_ = 0;
    plan_progress progress_;
    std::vector<plan_entry> best_;  // the top K so far, unsorted heap by time
    std::vector<plan_entry> front_;  // Pareto front so far, by memory ascending
    std::vector<std::pair<double, double>> front_points_;  // its (memory, time), which cannot_place searches
    std::optional<plan_entry> closest_;
    std::uint64_t search_version_ = 1;  // advanced whenever consider() gets a fitting plan
    double fastest_s_ = std::numeric_limits<double>::infinity();  // of the fitting plans considered
    // The other parts' bounds (shared_bounds), as last read between layouts (read_shared_bounds).
    shared_bounds* shared_ = nullptr;
    double others_kth_s_ = std::numeric_limits<double>::infinity(), others_fastest_s_ = std::numeric_limits<double>::infinity();
    std::uint64_t others_front_version_ = 0;
    std::vector<std::pair<double, double>> others_front_;  // shared_bounds::others, as last read
    void read_shared_bounds();
    void publish_bounds(bool front_changed) const;
    bool top_faster_than(double lb) const;
    double listed_time_of(const plan_choice& layout) const;
    // The fastest listed plan of the layout being searched (infinity: none), set when the layout
    // starts and lowered by consider(); top_faster_than's own-layout bound.
    double layout_best_s_ = std::numeric_limits<double>::infinity();
    bool beyond_top(double memory_bytes, double lb) const;
    plan_choice baseline_;  // the scenario's own plan
    bool baseline_valid_ = false;
    bool in_baseline_layout_ = false;  // the layout being searched is the baseline's: no pruning
    std::optional<plan_entry> baseline_best_;
    // The mesh of the layout searched last, kept for the next ones of the same degrees. Its groups
    // depend on (tp, pp, cp, dp, ep), the axis order and the node size (mesh.hpp), and layouts come
    // with etp and the CP method innermost: those enter no group (the spec's cp_method, sp and
    // heads feed only the mesh's warnings, which the search never reads).
    std::array<std::int64_t, 5> mesh_degrees_{};
    std::optional<mesh_layout> mesh_;
    std::map<pipe_key, pipeline_timing> pipe_cache_;
    using shape_key = std::tuple<int, std::int64_t, std::int64_t, std::int64_t>;  // (schedule, p, m, v)
    std::map<shape_key, bubble_bound> bubble_bounds_;
    std::optional<std::pair<shape_key, pipeline_schedule>> schedule_;  // the one generated last
    std::int64_t hits_ = 0, misses_ = 0;
    double elapsed_s_ = 0;
    std::pair<std::int64_t, std::int64_t> classes_of_{0, 0};  // the (tp, pp) class_cache_ holds
    std::map<std::tuple<std::int64_t, std::int64_t, int, std::int64_t>, std::vector<detail::stage_class>>
        class_cache_;  // (ep, etp, placement, chunks)
    // The per-layer times by what they read of a layout (compute.hpp stage_layer_times): tp, cp and
    // its method, ep, etp, the micro-batch, and whether the busiest stage holds dense and MoE layers
    // (sp is tp > 1 in every plan); layouts that differ in pp or dp share them.
    using layer_key =
        std::tuple<std::int64_t, std::int64_t, std::size_t, std::int64_t, std::int64_t, std::int64_t, bool, bool>;  // method: cp_method_rows index
    // The hash of an integer tuple: its fields mixed in order (multiplicative, then folded).
    struct tuple_hash {
        template <class... T>
        std::size_t operator()(const std::tuple<T...>& k) const {
            std::size_t h = 0;
            std::apply([&](const auto&... v) { ((h = h * 0x9E3779B97F4A7C15ull + static_cast<std::size_t>(v)), ...); }, k);
            return h ^ (h >> 29);
        }
    };
    std::unordered_map<layer_key, stage_layer_times, tuple_hash> layer_times_;
    std::int64_t caches_tp_ = 0;  // the tp of layer_times_'s and act_terms_'s entries (search_layout)
    using act_key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, bool>;  // (tp, cp, etp, micro-batch, recompute, sp)
    std::unordered_map<act_key, detail::activation_terms, tuple_hash> act_terms_;
    std::vector<std::vector<detail::activation_rates>> rates_;  // search_recompute's, by class table
    std::vector<double> layers_, other_;  // its activations of one schedule, by class

    // Compute and communication of one (layout, micro-batch, recompute, zero), by vpp: the report's
    // own functions (estimate_compute_time with split_chunks, build_comm_inventory, axis_totals),
    // evaluated once per vpp that a plan needs. Schedules that overlap EP (DualPipe, DualPipeV)
    // take ep_hidden_s of their chunk costs off the EP axis when a plan is placed.
    struct vpp_model {
        std::int64_t vpp = 1;
        compute_estimate compute;
        double pp_exposed_s = 0;
        std::vector<axis_comm> axes{};  // no EP overlap credit
        stage_comm chunk_comm{};  // per micro-batch TP/CP/EP in the chunk costs
    };
    // Step time without bubble and P2P over some of the axes (any vpp); `dual` with the EP axis
    // hidden in full, the bound of the schedules that pair chunks (DualPipe, DualPipeV).
    struct step_bounds {
        double plain = 0, dual = 0;
        double of(schedule_kind k) const { return bound_index(k) == 1 ? dual : plain; }
    };
    struct cached_model {
        compute_estimate compute;  // at vpp 1
        std::vector<vpp_model> by_vpp;  // filled only once a bound needs the communication; [0] is vpp 1
        double bound_compute_s = 0;  // step time without communication, bubble and P2P (any vpp)
        std::optional<step_bounds> ep_cp;  // over the EP and CP axes only (micro_batch_state::ep_cp)
        step_bounds comm;  // over every axis, set with by_vpp
    };
    using zero_models = std::array<std::optional<cached_model>, 4>;  // by ZeRO stage
    // search_recompute's, [optimizer offloaded · 2 + head class]: the compute reads the schedule only
    // through head_share (compute.hpp; DualPipe's ½), so the schedules of one class share a model.
    std::array<zero_models, 4> models_;
    static std::size_t head_class(const scenario& s) { return head_share(s) < 1 ? 1 : 0; }
    // The memory classes (memory.hpp) of one chunk placement in a layout, their model state per ZeRO
    // stage and their buffers at the current micro-batch: shared by the schedules that place chunks
    // alike (GPipe, 1F1B, ZB-H1 and ZB-H2; ZB-V and DualPipeV).
    struct class_table {
        stage_placement placement = stage_placement::linear;
        std::int64_t chunks = 1;  // per rank
        const std::vector<detail::stage_class>* classes = nullptr;  // class_cache_'s, kept for the layout
        // [class · 4 + zero]: a class's four ZeRO stages side by side, so that search_recompute sums
        // them lane by lane; state_offloaded with the optimizer states on the host
        std::vector<double> state{}, state_offloaded{}, buffers{};
        std::int64_t buffers_at = 0;  // the micro-batch size of `buffers` (0: none yet)
    };
    // One (schedule, vpp) of a layout: its class table and, at the current micro-batch, the rules'
    // verdict and the in-flight counts.
    struct schedule_table {
        schedule_kind kind = schedule_kind::one_f_one_b;
        std::int64_t vpp = 1;
        std::size_t classes = no_table;  // index into layout_tables::classes
        std::vector<double> inflight{};  // [class], at the current micro-batch
        bool valid = false;  // the rules hold at the current micro-batch
        std::size_t head_class = 0;  // plan_search::head_class of its plans
    };
    static constexpr std::size_t no_table = static_cast<std::size_t>(-1);
    struct layout_tables {
        std::vector<schedule_table> schedules;
        std::vector<class_table> classes;
    };
    // The model of the (layout, micro-batch)'s plan with no recompute at ZeRO 1, whose bounds are at
    // most every plan's (floor_prunes), and the memory from which a fitting plan cannot place, as of
    // search_version_: by compute alone, and by the lesser of that and the EP and CP bound once it
    // is built (plain, dual; bound_index).
    struct floor_state {
        std::optional<cached_model> model;
        std::uint64_t version = 0;
        double compute = 0;
        std::array<double, 2> settles_from = {0, 0};
    };
    // Which of a step_bounds pair or settles_from a schedule reads: 1 where it pairs chunks (dual).
    static std::size_t bound_index(schedule_kind k) { return describe(k).ep_overlap ? 1 : 0; }
    // floor_prunes' answer while its thresholds are current, without building anything.
    bool floor_settles(const floor_state& f, double memory, std::size_t dual) const {
        return f.version == search_version_ && memory >= f.settles_from[dual];
    }
    // What one (layout, micro-batch) shares across recompute modes.
    struct micro_batch_state {
        std::int64_t m = 1;
        std::optional<mesh_layout>* mesh = nullptr;
        std::optional<double> imbalance{};  // the expert balance depends on tokens per rank only
        const stage_layer_times* layers = nullptr;  // layer_times_'s; no recompute, ZeRO, offload or schedule in them (compute.hpp)
        std::optional<std::vector<axis_comm>> ep_cp{};  // the EP and CP axes (plan_search::ep_cp_of)
        std::array<floor_state, 2> floor{};  // by head_class: each a bound of its own schedules' plans
    };
    // The memory of one layout's plans, kept for the layouts after it that differ only in the CP
    // method (the method is the innermost loop): no memory term reads the method (activation_terms_of,
    // stage_classes, rank_state_of and rank_buffers_of; activation_terms_at's key and class_table_of's
    // cache omit it) and neither do the schedule rules, so those layouts' plans have the same ZeRO
    // totals, bit for bit, and only their times are their own. Complete once a whole pass filled it.
    using zero_totals = std::array<double, 4>;
    struct memory_memo {
        std::array<std::int64_t, 6> layout{};  // (tp, pp, cp, dp, ep, etp)
        bool complete = false;
        std::size_t schedules = 0;
        std::vector<char> valid;  // [micro-batch · schedules + schedule]: the rules hold
        std::vector<zero_totals> totals, offloaded;  // [(micro-batch · 4 + recompute) · schedules + schedule]
        std::vector<char> has_offloaded;  // offloaded was formed (where a plan missed HBM)
    };
    memory_memo memo_;
    bool replaying_ = false;  // the layout reads memo_ instead of building its memory
    std::size_t memo_mb_ = 0, memo_mode_ = 0;  // the micro-batch and recompute indices being searched
    std::size_t memo_slot(std::size_t schedule) const { return (memo_mb_ * 4 + memo_mode_) * memo_.schedules + schedule; }
    bool begin_memo(const std::array<std::int64_t, 6>& degrees, std::size_t micro_batches, std::size_t schedules);
    void replay_micro_batch(layout_tables& lt);
    zero_totals schedule_totals(const scenario& s, const layout_tables& lt, const schedule_table& t, const detail::activation_terms& act);
    cached_model compute_model(scenario& s, const zero_models& done, micro_batch_state& mbs);
    const stage_layer_times& layer_times_of(const scenario& s);
    static step_bounds bounds_over(const compute_estimate& c, std::vector<axis_comm> axes, double imbalance);
    const mesh_layout& mesh_of(const scenario& s, micro_batch_state& mbs) const;
    const std::vector<axis_comm>& ep_cp_of(const scenario& s, micro_batch_state& mbs, const cached_model& cm) const;
    void add_comm(scenario& s, micro_batch_state& mbs, cached_model& cm) const;
    bool may_place(scenario& s, double memory_bytes, cached_model& cm, micro_batch_state& mbs);
    const vpp_model& model_at(scenario& s, const mesh_layout& mesh, cached_model& cm) const;
    std::size_t class_table_of(scenario& s, layout_tables& lt, const schedule_table& t);
    void search_layout(const layout& l);
    void prepare_micro_batch(scenario& s, layout_tables& lt, std::int64_t m);
    void search_recompute(scenario& s, const layout_tables& lt, micro_batch_state& mbs);
    const detail::activation_terms& activation_terms_at(const scenario& s);
    static std::int64_t plans_per_schedule(const plan_options& o);
    void settle_fitting(scenario& s, double memory_bytes, zero_models& models, micro_batch_state& mbs);
    void evaluate_fitting(scenario& s, double memory_bytes, zero_models& models, micro_batch_state& mbs);
    void place(scenario& s, double memory_bytes, cached_model& cm, const micro_batch_state& mbs);
    plan_entry entry_of(const scenario& s, double memory_bytes) const;
    void baseline_result(plan_result& r) const;
    void load_part(const json& j, const std::string& path);
    void consider(const plan_entry& e);
    void keep(const plan_entry& e);  // consider()'s top-K and front bookkeeping of a fitting plan
    // True when a fitting plan whose step time is at least `lb` can enter neither the top K nor
    // the Pareto front (the argument is at the definition).
    bool cannot_place(double memory_bytes, double lb) const;
    // The memory from which cannot_place(memory, lb) holds (infinity: at no memory).
    double cannot_place_from(double lb) const;
    bool past_window(double lb) const;
    bool floor_prunes(scenario& s, micro_batch_state& mbs, double memory);
    static pipe_key pipe_key_of(const schedule_request& q, const pipeline_costs& c);
    bool simulates(const schedule_request& q) const;
    const pipeline_schedule& schedule_of(const schedule_request& q);
    double bubble_floor(const schedule_request& q, const pipeline_costs& c);
    pipeline_timing timing_of(const schedule_request& q, const pipeline_costs& c);
};

// Called about once a second during run_plan with the progress and the seconds elapsed.
using plan_progress_fn = std::function<void(const plan_progress&, double elapsed_s)>;
plan_result run_plan(const scenario& s, const plan_options& o, const plan_progress_fn& on_progress = {});

// The top K's order: step time, then memory (of equally fast plans the leaner first), then search
// order, so the choice among exact ties does not depend on the standard library's heap (native
// and wasm list the same plans).
inline bool ranks_before(const plan_entry& a, const plan_entry& b) {
    return std::tie(a.time_s, a.memory_bytes, a.order) < std::tie(b.time_s, b.memory_bytes, b.order);
}

namespace detail {
std::vector<std::int64_t> divisors(std::int64_t n);  // ascending
}  // namespace detail

json plan_to_json(const plan_result& r);
// {"considered", "evaluated", "fitting", "timed", "layouts_searched", "layouts_total", "done", "capped"}
json plan_progress_json(const plan_progress& p);
std::string plan_table(const plan_result& r);

// Facade entry point shared by the CLI and wasm: scenario text and options text ("" = defaults).
std::string plan_json_text(const std::string& scenario_text, const std::string& options_text);
// The merge of a search run in parts elsewhere (the lab's Web Workers): the parts' tslab/plan-part@1
// states as a JSON array, in part order, give tslab/plan@1 JSON as one search would (elapsed_s: the
// slowest part's; candidates_timed and pipeline_cache: the parts' sums).
std::string plan_merge_json_text(const std::string& scenario_text, const std::string& options_text, const std::string& parts_text);

}  // namespace tslab
