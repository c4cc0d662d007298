// Generate + validate + simulate pipeline schedules: the two targets and a p·m·v sweep.
#include <benchmark/benchmark.h>

#include "tslab/pipeline_sim.hpp"

namespace {

void run(benchmark::State& state, tslab::schedule_kind k, std::int64_t p, std::int64_t m, std::int64_t v) {
    tslab::schedule_request q;
    q.kind = k;
    q.ranks = p;
    q.microbatches = m;
    q.vpp = v;
    tslab::pipeline_costs c;
    c.F = 1, c.B = 2, c.W = 1, c.FB = 2.5, c.p2p_s = 0.05;
    std::size_t ops = 0;
    for (auto _ : state) {
        const auto s = tslab::generate_schedule(q);
        const auto t = tslab::simulate_pipeline(s, c);
        benchmark::DoNotOptimize(t.makespan_s);
        ops = 0;
        for (const auto& r : s.rank_ops) ops += r.size();
    }
    state.counters["ops"] = static_cast<double>(ops);
    state.counters["pmv"] = static_cast<double>(p * m * v);
    state.counters["ns_per_op"] =
        benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_dualpipev_64x512(benchmark::State& s) { run(s, tslab::schedule_kind::dualpipev, 64, 512, 1); }
void BM_zbv_64x512(benchmark::State& s) { run(s, tslab::schedule_kind::zbv, 64, 512, 1); }
void BM_interleaved_64x512_v4(benchmark::State& s) { run(s, tslab::schedule_kind::interleaved, 64, 512, 4); }
void BM_interleaved_sweep(benchmark::State& s) { run(s, tslab::schedule_kind::interleaved, s.range(0), s.range(1), s.range(2)); }
void BM_dualpipev_sweep(benchmark::State& s) { run(s, tslab::schedule_kind::dualpipev, s.range(0), s.range(1), 1); }

}  // namespace

BENCHMARK(BM_dualpipev_64x512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_zbv_64x512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_interleaved_64x512_v4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_interleaved_sweep)
    ->Args({8, 64, 2})
    ->Args({16, 128, 2})
    ->Args({32, 256, 2})
    ->Args({64, 512, 2})
    ->Args({64, 512, 8})
    ->Args({128, 1024, 4})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_dualpipev_sweep)->Args({8, 64})->Args({16, 128})->Args({32, 256})->Args({64, 1024})->Unit(benchmark::kMillisecond);
