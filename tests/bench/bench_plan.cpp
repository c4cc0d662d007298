// Google Benchmark of the planner on Kimi K2 (dgx-h100): exhaustive search wall time by GPU count
// and thread count, and candidates per second on a capped search. Counters: candidates (evaluated:
// the valid plans, each with its memory total and fit test), candidates/s, and timed (fitting plans
// timed in full).
#include <benchmark/benchmark.h>

#include "tslab/planner.hpp"

namespace {

const tslab::scenario& kimi() {
    static const tslab::scenario s = tslab::parse_scenario_text(R"({"model": "kimi-k2", "cluster": "dgx-h100",
      "parallel": {"dp": 8}, "training": {"seq_len": 4096, "global_batch": 4096}})");
    return s;
}

// range(1): threads (0: one per hardware thread, run_plan's default; 1: the single-thread search
// that the wasm build runs).
void run(benchmark::State& st, std::int64_t cap) {
    tslab::plan_options o;
    o.gpus = st.range(0);
    o.threads = static_cast<int>(st.range(1));
    o.max_candidates = cap;
    std::int64_t evaluated = 0, timed = 0;
    for (auto _ : st) {
        const tslab::plan_result r = tslab::run_plan(kimi(), o);
        evaluated = r.progress.evaluated;
        timed = r.progress.timed;
        benchmark::DoNotOptimize(r.top.data());
    }
    st.counters["candidates"] = static_cast<double>(evaluated);
    st.counters["timed"] = static_cast<double>(timed);
    st.counters["candidates/s"] =
        benchmark::Counter(static_cast<double>(evaluated) * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
}

// Exhaustive: every valid plan of N GPUs (one iteration each; the 4096-GPU case is the speed goal).
void bm_plan_kimi_exhaustive(benchmark::State& st) { run(st, 1'000'000'000); }
BENCHMARK(bm_plan_kimi_exhaustive)
    ->ArgsProduct({{512, 1024, 2048, 4096, 8192}, {1, 0}})
    ->ArgNames({"gpus", "threads"})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The first 100,000 candidates of 4096 GPUs: throughput without the full search's length.
void bm_plan_kimi_capped(benchmark::State& st) { run(st, 100'000); }
BENCHMARK(bm_plan_kimi_capped)->Args({4096, 1})->ArgNames({"gpus", "threads"})->Unit(benchmark::kMillisecond);

}  // namespace
