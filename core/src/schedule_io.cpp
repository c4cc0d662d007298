// Parsing a schedule SPEC with field_reader and writing the result as JSON, a table or trace events.
#include "tslab/schedule_io.hpp"

#include <fmt/format.h>

#include "tslab/errors.hpp"
#include "tslab/json_parse.hpp"

namespace tslab {

namespace {

json parse_text(const std::string& text) { return parse_json(text); }

pipeline_costs parse_costs(field_reader& top) {
    pipeline_costs c;
    const json* obj = top.object("costs");
    if (!obj) return c;
    field_reader r(*obj, top.path_of("costs"));
    c.F = r.number("F", c.F, 0, 1e6);
    c.B = r.number("B", c.B, 0, 1e6);
    // W defaults to half of the B given, the ratio of the defaults (F = 1, B = 2, W = 1: F = I = W,
    // Qi et al. arXiv 2401.10241 section 3), so a spec with F and B only never breaks W ≤ B.
    c.W = r.number("W", c.B / 2, 0, 1e6);
    c.FB = r.number("FB", -1, 0, 2e6);
    r.finish();
    return c;
}

// The exact op count against the cap on listed ops, before anything is generated.
// `id` words the cap with its hint (schedule.listed_ops_over_cap_*).
void check_listed_ops(const schedule_request& q, const char* path, const char* id) {
    check_schedule_request(q);
    const double ops = schedule_op_estimate(q);
    if (ops > static_cast<double>(max_listed_ops))
        throw input_error(path,
                          msg(id,
                              {{"schedule", to_string(q.kind)},
                               {"ranks", fmt::format("{}", q.ranks)},
                               {"m", fmt::format("{}", q.microbatches)},
                               {"vpp", fmt::format("{}", q.vpp)},
                               {"ops", fmt::format("{:.4g}", ops)},
                               {"cap", fmt::format("{}", max_listed_ops)}}));
}

}  // namespace

schedule_spec parse_schedule_spec(const json& doc) {
    field_reader r(doc, "");
    schedule_spec s;
    s.request.kind = *schedule_from_name(r.choice("schedule", to_string(s.request.kind), schedule_names()));
    // Counts are read with wide ranges on purpose: the op cap turns absurd sizes into one clear error.
    s.request.ranks = r.integer("ranks", 4, 1, 1 << 16);
    s.request.microbatches = r.integer("microbatches", 8, 1, 1'000'000'000'000);
    s.request.vpp = r.integer("vpp", 1, 1, 255);
    s.request.extra_warmup = r.integer("extra_warmup", 0, 0, 1'000'000);
    s.request.pair_steady = r.boolean("ep_overlap", false);
    s.costs = parse_costs(r);
    s.costs.p2p_s = r.number("p2p_s", 0, 0, 1e3);
    s.timeline = r.boolean("timeline", true);
    r.finish();
    check_costs(s.costs);
    return s;
}

schedule_run run_schedule(const schedule_spec& spec) {
    schedule_run run{spec, generate_schedule(spec.request), {}};
    run.timeline = simulate_pipeline(run.schedule, spec.costs);
    return run;
}

namespace {

json op_json(const pipeline_op& o, std::size_t r, const op_time& t) {
    json j{{"rank", r}, {"kind", to_string(o.kind)}, {"stage", o.stage}, {"microbatch", o.microbatch}, {"chunk", o.chunk}};
    if (o.kind == op_kind::FB) {
        j["b_stage"] = o.b_stage;
        j["b_microbatch"] = o.b_microbatch;
        j["b_chunk"] = o.b_chunk;
    }
    j["start_s"] = t.start_s;
    j["end_s"] = t.end_s;
    return j;
}

std::size_t op_count(const pipeline_schedule& s) {
    std::size_t n = 0;
    for (const auto& ops : s.rank_ops) n += ops.size();
    return n;
}

}  // namespace

json schedule_to_json(const schedule_run& run) {
    const auto& t = run.timeline;
    json ranks = json::array();
    for (std::size_t r = 0; r < t.ranks.size(); ++r)
        ranks.push_back({{"rank", r}, {"span_s", t.ranks[r].span_s}, {"busy_s", t.ranks[r].busy_s}, {"peak_inflight", t.ranks[r].peak_inflight}});
    json out{{"schema", "tslab/schedule@1"},
             {"schedule", to_string(run.schedule.kind)},
             {"microbatches", run.schedule.microbatches},
             {"vpp", run.schedule.vpp},
             {"stages", run.schedule.stages},
             {"op_count", op_count(run.schedule)},
             {"makespan_s", t.makespan_s},
             {"bubble_fraction", t.bubble_fraction},
             {"param_copies", t.param_copies},
             {"stage_params_per_device", run.schedule.stage_params_per_device},
             {"ranks", std::move(ranks)}};
    if (!run.spec.timeline) return out;
    json ops = json::array();
    for (std::size_t r = 0; r < run.schedule.rank_ops.size(); ++r)
        for (std::size_t i = 0; i < run.schedule.rank_ops[r].size(); ++i) ops.push_back(op_json(run.schedule.rank_ops[r][i], r, t.times[r][i]));
    out["ops"] = std::move(ops);
    return out;
}

json schedule_to_trace(const schedule_run& run) {
    json events = json::array();
    for (std::size_t r = 0; r < run.schedule.rank_ops.size(); ++r)
        events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", r}, {"args", {{"name", fmt::format("rank {}", r)}}}});
    for (std::size_t r = 0; r < run.schedule.rank_ops.size(); ++r)
        for (std::size_t i = 0; i < run.schedule.rank_ops[r].size(); ++i) {
            const pipeline_op& o = run.schedule.rank_ops[r][i];
            const op_time& t = run.timeline.times[r][i];
            events.push_back({{"name", fmt::format("{} mb {} · chunk {}", to_string(o.kind), o.microbatch, o.chunk)},
                              {"cat", to_string(o.kind)},
                              {"ph", "X"},
                              {"pid", 0},
                              {"tid", r},
                              {"ts", t.start_s * 1e6},
                              {"dur", (t.end_s - t.start_s) * 1e6},
                              {"args", op_json(o, r, t)}});
        }
    return json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

std::string schedule_table(const schedule_run& run) {
    const auto& t = run.timeline;
    std::string out = fmt::format("schedule {}  ranks {}  m {}  vpp {}  stages {}\n", to_string(run.schedule.kind), run.schedule.ranks,
                                  run.schedule.microbatches, run.schedule.vpp, run.schedule.stages);
    out += fmt::format("makespan {:.6g} s  bubble {:.2f} %  parameter copies {:g}\n\n", t.makespan_s, 100 * t.bubble_fraction, t.param_copies);
    out += fmt::format("{:>6} {:>14} {:>14} {:>14} {:>14}\n", "rank", "span_s", "busy_s", "idle_s", "peak_inflight");
    for (std::size_t r = 0; r < t.ranks.size(); ++r)
        out += fmt::format("{:>6} {:>14.6g} {:>14.6g} {:>14.6g} {:>14}\n", r, t.ranks[r].span_s, t.ranks[r].busy_s, t.makespan_s - t.ranks[r].busy_s,
                           t.ranks[r].peak_inflight);
    return out;
}

std::string schedule_json_text(const std::string& spec_text) {
    const schedule_spec spec = parse_schedule_spec(parse_text(spec_text));
    if (spec.timeline) check_listed_ops(spec.request, "timeline", "schedule.listed_ops_over_cap_timeline");
    return schedule_to_json(run_schedule(spec)).dump(2);
}
std::string schedule_trace_text(const std::string& spec_text) {
    schedule_spec spec = parse_schedule_spec(parse_text(spec_text));
    check_listed_ops(spec.request, "$", "schedule.listed_ops_over_cap_trace");
    return schedule_to_trace(run_schedule(spec)).dump();
}
std::string schedule_work_text(const std::string& spec_text) {
    const schedule_spec spec = parse_schedule_spec(parse_text(spec_text));
    check_schedule_request(spec.request);
    const double work = schedule_work_estimate(spec.request);
    return json{{"schema", "tslab/schedule-work@1"},
                {"op_count", schedule_op_estimate(spec.request)},
                {"work_ops", work},
                {"foreground", work <= static_cast<double>(max_foreground_ops)},
                {"listed_ops_cap", max_listed_ops},
                {"work_ops_cap", max_schedule_ops}}
        .dump(2);
}
std::string schedule_table_text(const std::string& spec_text) { return schedule_table(run_schedule(parse_schedule_spec(parse_text(spec_text)))); }

}  // namespace tslab
