// The planner's result: the top plans re-timed by the full report, the Pareto front, the closest
// miss, options, JSON (fixed key order: native and wasm match byte for byte) and the table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <tuple>

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/global_batch.hpp"
#include "tslab/json_parse.hpp"
#include "tslab/planner.hpp"
#include "tslab/report.hpp"
#include "tslab/scenario_json.hpp"
#include "tslab/schedule_shape.hpp"
#include "tslab/units.hpp"

namespace tslab {

plan_choice plan_choice_of(const scenario& s) {
    const auto& q = s.parallel;
    return {q.dp,
            q.tp,
            q.pp,
            q.vpp,
            q.ep,
            q.cp,
            s.training.micro_batch,
            q.zero,
            s.training.recompute,
            s.training.schedule,
            q.etp,
            static_cast<std::size_t>(q.cp_method),
            q.sp,
            s.training.offload.optimizer,
            s.training.overlap.tp_comm};
}

json choice_json(const plan_choice& c) {
    return json{{"parallel",
                 {{"dp", c.dp},
                  {"tp", c.tp},
                  {"pp", c.pp},
                  {"vpp", c.vpp},
                  {"ep", c.ep},
                  {"etp", c.etp},
                  {"cp", c.cp},
                  {"cp_method", cp_method_rows[c.cp_method].name},
                  {"sp", c.sp},
                  {"zero", c.zero}}},
                {"micro_batch", c.micro_batch},
                {"recompute", to_string(c.recompute)},
                {"schedule", to_string(c.schedule)},
                {"offload_optimizer", c.offload_optimizer},
                {"tp_comm", c.tp_comm}};
}

namespace {

scenario apply_choice(scenario s, const plan_choice& c) {
    auto& q = s.parallel;
    q.dp = c.dp, q.tp = c.tp, q.pp = c.pp, q.vpp = c.vpp, q.ep = c.ep, q.cp = c.cp, q.zero = c.zero;
    q.etp = c.etp, q.cp_method = cp_method_rows[c.cp_method].kind, q.sp = c.sp;
    s.training.micro_batch = c.micro_batch;
    s.training.recompute = c.recompute;
    s.training.schedule = c.schedule;
    s.training.offload.optimizer = c.offload_optimizer;
    s.training.overlap.tp_comm = c.tp_comm;
    return s;
}

// The full report of the plan: exact step time (simulator included), ledgers and bottleneck.
void detail_entry(plan_entry& e, const scenario& base) {
    const scenario s = apply_choice(base, e.choice);
    e.scenario = scenario_to_json(s);
    e.search_memory_bytes = e.memory_bytes;
    const report r = build_report(s, 0);
    e.time_s = r.step.time_s;
    e.memory_bytes = r.memory.total_bytes;
    e.headroom_bytes = r.memory.headroom_bytes;
    e.tokens_per_s = r.step.tokens_per_s;
    e.mfu = r.step.mfu;
    e.ledgers = r.step.ledgers;
    e.segments = r.step.segments;
    e.bottleneck = r.step.bottleneck;
    e.bottleneck_msg = r.step.bottleneck_msg;
    const step_ledger* top = &e.ledgers[2];
    for (std::size_t i = 3; i <= 6; ++i)
        if (e.ledgers[i].exposed_s > top->exposed_s) top = &e.ledgers[i];
    e.bottleneck_ledger = top->id;
}

// A Pareto member keeps the search's numbers. Where the search timed its schedule by the closed
// forms (more than options.simulate_ops ops) the report simulates it, so its step time is taken
// from the report, which its scenario reproduces.
// Past the time budget (out_of_time) the search's closed-form time stays, and the entry says so.
void front_entry(plan_entry& e, const scenario& base, std::int64_t simulate_ops, bool out_of_time) {
    const scenario s = apply_choice(base, e.choice);
    e.scenario = scenario_to_json(s);
    e.search_memory_bytes = e.memory_bytes;
    if (schedule_op_estimate(scenario_schedule_request(s, s.training.microbatches(s.parallel))) <= static_cast<double>(simulate_ops)) return;
    if (out_of_time)
        e.time_from_report = false;
    else
        e.time_s = build_report(s, 0).step.time_s;
}

json versus_json(const versus_baseline& v) {
    json largest = json::array();
    for (const auto& d : v.largest) largest.push_back({{"segment", d.id}, {"ledger", d.ledger}, {"delta_s", d.delta_s}});
    return {{"speedup", v.speedup}, {"largest", std::move(largest)}, {"note", v.note}};
}

json entry_json(const plan_entry& e, bool detailed) {
    json j = choice_json(e.choice);
    j["time_s"] = e.time_s;
    // Rounded as the report writes bytes, so memory_bytes equals its memory.total_bytes.
    j["memory_bytes"] = static_cast<std::int64_t>(std::llround(e.memory_bytes));
    j["headroom_bytes"] = static_cast<std::int64_t>(std::llround(e.headroom_bytes));
    if (!detailed) {
        j["time_from"] = e.time_from_report ? "report" : "search";
        j["scenario"] = e.scenario;
        return j;
    }
    j["tokens_per_s"] = e.tokens_per_s;
    j["mfu"] = e.mfu;
    j["bottleneck_ledger"] = e.bottleneck_ledger;
    j["bottleneck"] = e.bottleneck;
    j["bottleneck_msg"] = messages_json(e.bottleneck_msg);
    json ledgers = json::array();
    for (const auto& l : e.ledgers) ledgers.push_back({{"id", l.id}, {"name", l.name}, {"time_s", l.time_s}, {"exposed_s", l.exposed_s}});
    j["ledgers"] = std::move(ledgers);
    if (e.versus) j["versus_scenario"] = versus_json(*e.versus);
    j["scenario"] = e.scenario;
    return j;
}

std::string describe(const plan_choice& c) {
    return fmt::format("dp {} tp {} pp {} vpp {} ep {} etp {} cp {}{} zero {} mb {} {} {}", c.dp, c.tp, c.pp, c.vpp, c.ep, c.etp, c.cp,
                       c.cp > 1 ? std::string(" ") + cp_method_rows[c.cp_method].name : std::string(), c.zero, c.micro_batch, to_string(c.recompute),
                       to_string(c.schedule)) +
        (c.offload_optimizer > 0 ? fmt::format(" offload {:g}", c.offload_optimizer) : std::string()) + (c.tp_comm && c.tp > 1 ? " tp-overlap" : "");
}

// Which step segments make plan e faster or slower than another plan (`time_s`, `segments`), named
// in the note as `what`: the three largest |Δ|.
versus_baseline compare_segments(const plan_entry& e, double time_s, const std::vector<step_segment>& segments, std::string_view what) {
    versus_baseline v;
    v.speedup = e.time_s > 0 ? time_s / e.time_s : 0;
    for (const auto& seg : e.segments) {
        double theirs = 0;
        for (const auto& o : segments)
            if (o.id == seg.id) theirs = o.time_s;
        if (seg.time_s != theirs) v.largest.push_back({seg.id, seg.ledger, seg.time_s - theirs});
    }
    std::sort(v.largest.begin(), v.largest.end(), [](const segment_delta& x, const segment_delta& y) {
        return std::abs(x.delta_s) > std::abs(y.delta_s) || (std::abs(x.delta_s) == std::abs(y.delta_s) && x.id < y.id);
    });
    if (v.largest.size() > 3) v.largest.resize(3);
    v.note = fmt::format("{:.2f}× {}", v.speedup, what);
    for (std::size_t i = 0; i < v.largest.size(); ++i)
        v.note += fmt::format("{}{} {:+.3g} s", i ? ", " : ": ", v.largest[i].id, v.largest[i].delta_s);
    return v;
}

}  // namespace

plan_result plan_search::result(double seconds_left) const {
    const plan_time start = clock_now(opt_.clock);
    const auto out_of_time = [&] { return seconds_left <= 0 || seconds_between(start, clock_now(opt_.clock)) > seconds_left; };
    plan_result r;
    r.gpus = gpus_;
    r.seq_len = base_.training.seq_len;
    r.global_batch = base_.training.global_batch;
    r.global_batch_default = !base_.training.global_batch_given;
    r.global_batch_rule_msg = batch_rule_;
    r.global_batch_rule = global_batch_rule_text(batch_rule_);
    r.sp = base_.parallel.sp;
    r.progress = progress_;
    r.top = best_;
    for (auto& e : r.top) detail_entry(e, base_);
    std::sort(r.top.begin(), r.top.end(), ranks_before);
    // The front kept by the search, within the window of the fastest plan (pareto_window).
    std::copy_if(front_.begin(), front_.end(), std::back_inserter(r.pareto), [&](const plan_entry& e) { return !past_window(e.time_s); });
    for (auto& e : r.pareto) front_entry(e, base_, opt_.simulate_ops, out_of_time());
    if (progress_.fitting == 0 && closest_) {
        r.closest = closest_;
        detail_entry(*r.closest, base_);
    }
    baseline_result(r);
    if (progress_.capped)
        r.say(msg("plan.capped",
                  {{"evaluated", std::to_string(progress_.evaluated)},
                   {"done", std::to_string(progress_.groups_done)},
                   {"total", std::to_string(progress_.groups_total)}}));
    else if (progress_.evaluated == 0)
        r.say(msg("plan.no_valid_plan", {{"gpus", std::to_string(gpus_)}}));
    else if (progress_.fitting == 0 && r.closest)
        r.say(msg("plan.nothing_fits",
                  {{"closest", describe(r.closest->choice)},
                   {"needs", fmt::format("{:.2f}", r.closest->memory_bytes / gib_bytes)},
                   {"over", fmt::format("{:.2f}", -r.closest->headroom_bytes / gib_bytes)},
                   {"capacity",
                    fmt::format("{:.2f}", (r.closest->memory_bytes + r.closest->headroom_bytes) / gib_bytes)}}));  // headroom = capacity − memory
    r.pipeline_cache_hits = hits_;
    r.pipeline_cache_misses = misses_;
    r.elapsed_s = elapsed_s_;
    return r;
}

// The scenario's own plan as given, the best plan of its layout, that layout's rank in the top list,
// and each top entry against the plan as given.
void plan_search::baseline_result(plan_result& r) const {
    plan_baseline& b = r.baseline;
    b.choice = baseline_;
    b.valid = baseline_valid_;
    if (!b.valid) return;
    const report own = build_report(base_, 0);
    b.time_s = own.step.time_s;
    b.fits = own.memory.fits;
    b.segments = own.step.segments;
    if (baseline_best_) {
        b.best_of_layout = baseline_best_;
        detail_entry(*b.best_of_layout, base_);
        for (std::size_t i = 0; i < r.top.size(); ++i)
            if (r.top[i].choice.same_layout(b.choice)) b.layout_rank = static_cast<std::int64_t>(i) + 1;
    }
    for (auto& e : r.top) e.versus = compare_segments(e, b.time_s, b.segments, "the scenario's own plan");
    // Where the best plan beats the scenario's layout even at that layout's best knobs, the costs that
    // separate the two layouts (e.g. a smaller bubble against a larger DP all-gather).
    if (b.best_of_layout && !r.top.empty())
        b.best_versus_layout = compare_segments(r.top.front(), b.best_of_layout->time_s, b.best_of_layout->segments, "its layout at its best knobs");
}

plan_options parse_plan_options(const json& doc) {
    field_reader r(doc, "options");
    plan_options o;
    o.top = r.integer("top", o.top, 1, 1000);
    o.gpus = r.integer("gpus", 0, 0, max_plan_gpus);
    o.max_candidates = r.integer("max_candidates", o.max_candidates, 1, 1'000'000'000);
    o.simulate_ops = r.integer("simulate_ops", o.simulate_ops, 0, max_schedule_ops);
    o.max_seconds = r.number("max_seconds", o.max_seconds, 0.001, 86400);
    o.threads = static_cast<int>(r.integer("threads", o.threads, 0, max_plan_threads));
    static const std::vector<std::string> knobs = row_names(plan_knob_rows);
    for (std::size_t i : r.choice_set("fixed", knobs)) o.fixed |= 1u << static_cast<unsigned>(plan_knob_rows[i].knob);
    r.finish();
    return o;
}

namespace {

json baseline_json(const plan_baseline& b) {
    if (!b.valid) return nullptr;
    json j = choice_json(b.choice);
    j["time_s"] = b.time_s;
    j["fits"] = b.fits;
    j["layout_rank"] = b.layout_rank;
    j["best_of_layout"] = b.best_of_layout ? entry_json(*b.best_of_layout, true) : json(nullptr);
    j["best_versus_layout"] = b.best_versus_layout ? versus_json(*b.best_versus_layout) : json(nullptr);
    return j;
}

}  // namespace

json plan_to_json(const plan_result& r) {
    json top = json::array(), pareto = json::array();
    for (const auto& e : r.top) top.push_back(entry_json(e, true));
    for (const auto& e : r.pareto) pareto.push_back(entry_json(e, false));
    const auto& p = r.progress;
    return json{{"schema", "tslab/plan@1"},
                {"gpus", r.gpus},
                {"seq_len", r.seq_len},
                {"global_batch", r.global_batch},
                {"global_batch_source", r.global_batch_default ? "auto" : "given"},
                {"global_batch_rule", r.global_batch_rule},
                {"global_batch_rule_msg", messages_json(r.global_batch_rule_msg)},
                {"sp", r.sp},
                {"complete", p.done && !p.capped},
                {"capped", p.capped},
                {"message", r.message},
                {"message_msg", messages_json(r.message_msg)},
                {"candidates_considered", p.considered},
                {"candidates_evaluated", p.evaluated},
                {"candidates_fitting", p.fitting},
                {"candidates_timed", p.timed},
                {"layouts_searched", p.groups_done},
                {"layouts_total", p.groups_total},
                {"top", std::move(top)},
                {"pareto", std::move(pareto)},
                {"pareto_window", pareto_window},
                {"closest", r.closest ? entry_json(*r.closest, true) : json(nullptr)},
                {"scenario_plan", baseline_json(r.baseline)},
                {"pipeline_cache", {{"hits", r.pipeline_cache_hits}, {"misses", r.pipeline_cache_misses}}},
                {"elapsed_s", r.elapsed_s}};
}

json plan_progress_json(const plan_progress& p) {
    return json{{"considered", p.considered},        {"evaluated", p.evaluated},        {"fitting", p.fitting}, {"timed", p.timed},
                {"layouts_searched", p.groups_done}, {"layouts_total", p.groups_total}, {"done", p.done},       {"capped", p.capped}};
}

std::string plan_table(const plan_result& r) {
    const auto& p = r.progress;
    std::string out =
        fmt::format("plans for {} GPUs: {} evaluated, {} fit, {} timed in full, {:.3f} s\n", r.gpus, p.evaluated, p.fitting, p.timed, r.elapsed_s);
    out += fmt::format("ranked for a global batch of {} sequences × {} tokens{}\n", r.global_batch, r.seq_len,
                       r.global_batch_default ? " (" + r.global_batch_rule + ")" : "");
    if (!r.message.empty()) out += r.message + "\n";
    for (std::size_t i = 0; i < r.top.size(); ++i) {
        const auto& e = r.top[i];
        out += fmt::format("{:>3}. {:10.4g} s  MFU {:5.1f}%  {:8.2f} GiB free  {}  [{}]\n", i + 1, e.time_s, 100 * e.mfu,
                           e.headroom_bytes / gib_bytes, describe(e.choice), e.bottleneck_ledger);
    }
    if (const auto& b = r.baseline; b.valid) {
        out += fmt::format("the scenario's own plan: {:.4g} s{} ({})\n", b.time_s, b.fits ? "" : ", does not fit", describe(b.choice));
        if (b.best_of_layout)
            out += fmt::format("  its layout at its best knobs: {:.4g} s, {} ({})\n", b.best_of_layout->time_s,
                               b.layout_rank > 0 ? fmt::format("rank {} of the distinct layouts", b.layout_rank) : std::string("below the list"),
                               describe(b.best_of_layout->choice));
        if (!r.top.empty() && r.top.front().versus) out += "  best plan: " + r.top.front().versus->note + "\n";
        if (b.best_versus_layout) out += "  best plan: " + b.best_versus_layout->note + "\n";
    }
    out += fmt::format("Pareto front (memory vs time): {} plans\n", r.pareto.size());
    for (const auto& e : r.pareto) out += fmt::format("     {:10.4g} s  {:8.2f} GiB  {}\n", e.time_s, e.memory_bytes / gib_bytes, describe(e.choice));
    return out;
}

plan_options parse_plan_options_text(const std::string& text) {
    return parse_plan_options(text.empty() ? json::object() : parse_json(text, "options"));
}

std::string plan_json_text(const std::string& scenario_text, const std::string& options_text) {
    const scenario s = parse_scenario_text(scenario_text);
    return plan_to_json(run_plan(s, parse_plan_options_text(options_text))).dump(2);
}

}  // namespace tslab
