// Speed of the step's communication inventory: a 1T MoE (kimi-k2) on 4096 GPUs.
#include <benchmark/benchmark.h>

#include "tslab/comm_inventory.hpp"
#include "tslab/report.hpp"

namespace {

// Kimi K2 on 512 nodes × 8 H100: tp 8, pp 16, dp 32, ep 32, 1F1B, 128 micro-batches.
tslab::scenario kimi_4096() {
    return tslab::parse_scenario(tslab::json::parse(R"({
      "model": "kimi-k2", "cluster": {"preset": "dgx-h100", "nodes": 512},
      "parallel": {"dp": 32, "tp": 8, "pp": 16, "ep": 32, "sp": true, "zero": 1},
      "training": {"seq_len": 4096, "micro_batch": 1, "global_batch": 4096,
                   "overlap": {"dp": 0.9, "tp": 0.3, "pp": 0.5, "ep": 0.5}}})"));
}

// Mesh (one pass over all 4096 ranks) + every collective of the step.
void bm_mesh_and_inventory(benchmark::State& state) {
    const tslab::scenario s = kimi_4096();
    const tslab::param_counts pc = tslab::count_params(s.model);
    for (auto _ : state) {
        const tslab::mesh_layout m = tslab::build_mesh(tslab::mesh_spec_of(s));
        benchmark::DoNotOptimize(tslab::build_comm_inventory(s, m, pc));
    }
}
BENCHMARK(bm_mesh_and_inventory)->Unit(benchmark::kMicrosecond);

// The inventory alone, on a mesh built once. From the second iteration on, the per-thread memo of
// collective estimates (collectives.cpp) answers every call: the figure is a repeated inventory's.
void bm_inventory(benchmark::State& state) {
    const tslab::scenario s = kimi_4096();
    const tslab::param_counts pc = tslab::count_params(s.model);
    const tslab::mesh_layout m = tslab::build_mesh(tslab::mesh_spec_of(s));
    for (auto _ : state) benchmark::DoNotOptimize(tslab::build_comm_inventory(s, m, pc));
}
BENCHMARK(bm_inventory)->Unit(benchmark::kMicrosecond);

}  // namespace
