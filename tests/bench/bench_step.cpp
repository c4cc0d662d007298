// Google Benchmark of the per-scenario compute estimate (L3) and the integrated step model on presets.
#include <benchmark/benchmark.h>

#include "tslab/report.hpp"

namespace {

const tslab::scenario& deepseek() {
    static const tslab::scenario s = tslab::parse_scenario_text(R"({"model": "deepseek-v3", "cluster": "hgx-h800",
      "parallel": {"dp": 128, "ep": 64, "pp": 16, "zero": 1},
      "training": {"seq_len": 4096, "global_batch": 15360, "schedule": "dualpipe", "precision": "fp8-mixed"}})");
    return s;
}

const tslab::scenario& gpt1t() {
    static const tslab::scenario s = tslab::parse_scenario_text(R"({"model": "gpt-1t", "parallel": {"dp": 6, "tp": 8, "pp": 64, "vpp": 2},
      "training": {"global_batch": 3072, "recompute": "full", "schedule": "interleaved", "flash_attention": false}})");
    return s;
}

void bm_compute_deepseek(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::estimate_compute(deepseek()));
}
BENCHMARK(bm_compute_deepseek)->Unit(benchmark::kMicrosecond);

void bm_compute_gpt1t(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::estimate_compute(gpt1t()));
}
BENCHMARK(bm_compute_gpt1t)->Unit(benchmark::kMicrosecond);

// The whole step model without mesh listing or JSON (what one Narayanan prediction costs).
void bm_step_model_gpt1t(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::build_report(gpt1t(), 0));
}
BENCHMARK(bm_step_model_gpt1t)->Unit(benchmark::kMicrosecond);

}  // namespace
