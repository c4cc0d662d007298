// Google Benchmark of the native report (parse + every ledger + JSON text) on presets.
#include <benchmark/benchmark.h>

#include <string>

#include "tslab/presets.hpp"
#include "tslab/report.hpp"

namespace {

const char* deepseek = R"({"model": "deepseek-v3", "cluster": "hgx-h800",
  "parallel": {"dp": 128, "ep": 64, "pp": 16, "zero": 1},
  "training": {"seq_len": 4096, "global_batch": 15360, "schedule": "dualpipe", "precision": "fp8-mixed"}})";

// The DeepSeek-V3 preset on its own (default plan): the issue's report() benchmark.
void bm_report_json_deepseek_preset(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::report_json_text(R"({"model": "deepseek-v3"})"));
}
BENCHMARK(bm_report_json_deepseek_preset)->Unit(benchmark::kMicrosecond);

// A full DeepSeek-V3 plan: DualPipe over 16 stages is simulated twice (with and without P2P).
void bm_report_json_deepseek(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::report_json_text(deepseek));
}
BENCHMARK(bm_report_json_deepseek)->Unit(benchmark::kMicrosecond);

void bm_build_report_deepseek(benchmark::State& st) {
    const tslab::scenario s = tslab::parse_scenario_text(deepseek);
    for (auto _ : st) benchmark::DoNotOptimize(tslab::build_report(s));
}
BENCHMARK(bm_build_report_deepseek)->Unit(benchmark::kMicrosecond);

void bm_report_json_llama70b(benchmark::State& st) {
    const char* s = R"({"model": "llama3-70b", "cluster": "dgx-h100", "parallel": {"dp": 64, "zero": 3}})";
    for (auto _ : st) benchmark::DoNotOptimize(tslab::report_json_text(s));
}
BENCHMARK(bm_report_json_llama70b)->Unit(benchmark::kMicrosecond);

}  // namespace

namespace {
// The preset's model work alone (parse + build_report), without building or printing JSON.
void bm_build_report_deepseek_preset(benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::build_report(tslab::parse_scenario_text(R"({"model": "deepseek-v3"})")));
}
BENCHMARK(bm_build_report_deepseek_preset)->Unit(benchmark::kMicrosecond);
}  // namespace

namespace {
// Writing the preset's report as text alone (the streaming writer, no JSON tree).
void bm_report_text_deepseek_preset(benchmark::State& st) {
    const tslab::report r = tslab::build_report(tslab::parse_scenario_text(R"({"model": "deepseek-v3"})"));
    for (auto _ : st) benchmark::DoNotOptimize(tslab::report_text(r));
}
BENCHMARK(bm_report_text_deepseek_preset)->Unit(benchmark::kMicrosecond);
}  // namespace

namespace {
// Every model preset on its own ({"model": NAME}, the other parts' defaults), as the node script
// tests/node/bench_wasm.mjs times the wasm report: native must be no slower than wasm on any preset.
void bm_report_json_preset(benchmark::State& st, const std::string& text) {
    for (auto _ : st) benchmark::DoNotOptimize(tslab::report_json_text(text));
}
const bool presets_registered = [] {
    for (const std::string& name : tslab::model_preset_names())
        benchmark::RegisterBenchmark(("bm_report_json_preset/" + name).c_str(), bm_report_json_preset, R"({"model": ")" + name + R"("})")
            ->Unit(benchmark::kMicrosecond);
    return true;
}();
}  // namespace
