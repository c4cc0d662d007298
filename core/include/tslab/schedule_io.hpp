// The `schedule` facade: SPEC JSON in, simulated timeline out as JSON, a table or Chrome trace events.
#pragma once

#include <string>

#include "tslab/json_fields.hpp"
#include "tslab/pipeline_schedule.hpp"
#include "tslab/pipeline_sim.hpp"

namespace tslab {

// SPEC: { "schedule", "ranks", "microbatches", "vpp", "costs": { "F", "B", "W" (default B / 2), "FB" }, "p2p_s",
//         "extra_warmup" (interleaved only, Kimi K2), "ep_overlap" (1f1b and interleaved: the steady
//         phase's F and B as one F&B op each, schedule_request::pair_steady), "timeline" (false: omit ops[]) }
struct schedule_spec {
    schedule_request request;
    pipeline_costs costs;
    bool timeline = true;
};

schedule_spec parse_schedule_spec(const json& doc);

// The most ops a timeline (ops[]) or a trace lists: ~16 MB of JSON; 2M ops took 330 MB (and 2 GiB
// of wasm memory as a JSON tree). Larger runs give their summary with "timeline": false.
inline constexpr std::int64_t max_listed_ops = 100'000;

struct schedule_run {
    schedule_spec spec;
    pipeline_schedule schedule;
    pipeline_timeline timeline;
};
schedule_run run_schedule(const schedule_spec& spec);

// { schedule, microbatches, vpp, stages, op_count, makespan_s, bubble_fraction, param_copies,
//   ranks: [{rank, span_s, busy_s, peak_inflight}], ops: [{rank, kind, stage, microbatch, chunk,
//   start_s, end_s} (+ b_stage, b_microbatch, b_chunk for FB)] }
json schedule_to_json(const schedule_run& run);
// Chrome trace-event format (Perfetto, chrome://tracing): one thread (tid) per rank, µs times.
json schedule_to_trace(const schedule_run& run);
std::string schedule_table(const schedule_run& run);

// Facade entry points shared by the CLI and wasm (byte-identical JSON).
std::string schedule_json_text(const std::string& spec_text);
std::string schedule_trace_text(const std::string& spec_text);
std::string schedule_table_text(const std::string& spec_text);

// Ops a run lists at most and still answers within a frame budget where it is asked interactively:
// about 0.1 s of simulation in wasm (tests/node/bench_schedule.mjs measures the rate). Larger runs
// belong off the lab's main thread (a Worker), so the page never freezes on a typed rank count.
inline constexpr std::int64_t max_foreground_ops = 200'000;

// The work of a SPEC before any is done: { schema: "tslab/schedule-work@1", op_count (ops listed),
// work_ops (ops generated on the way, ZB-V's padding included), foreground (work_ops ≤
// max_foreground_ops), listed_ops_cap, work_ops_cap }. Throws input_error as schedule_json_text does
// for a bad SPEC or a broken precondition, so the error shows before the run.
std::string schedule_work_text(const std::string& spec_text);

}  // namespace tslab
