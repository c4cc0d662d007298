// Benchmark of the wasm plan(): the exhaustive search for Kimi K2 on dgx-h100 by GPU count (the speed
// goal is 4096 GPUs in under 2 s). Prints wall-clock and CPU-time medians and the candidate
// counts; asserts nothing. TSLAB_BENCH_RUNS runs per case (default 3), TSLAB_BENCH_GPUS a comma list.
import { loadTslab } from "./tslab_module.mjs";

const runs = Number(process.env.TSLAB_BENCH_RUNS ?? 3);
const gpuCounts = (process.env.TSLAB_BENCH_GPUS ?? "512,1024,2048,4096,8192").split(",").map(Number);
// The scenario of tests/bench/bench_plan.cpp.
const scenario = JSON.stringify({
  model: "kimi-k2", cluster: "dgx-h100", parallel: { dp: 8 }, training: { seq_len: 4096, global_batch: 4096 },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tslab = await loadTslab();
tslab.plan(scenario, JSON.stringify({ gpus: 64 })); // warm-up: JIT tiers and memory growth
for (const gpus of gpuCounts) {
  const options = JSON.stringify({ gpus, max_candidates: 1_000_000_000 });
  const wall = [];
  const cpu = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    result = JSON.parse(tslab.plan(scenario, options));
    wall.push(Number(process.hrtime.bigint() - t0) / 1e9);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e6);
  }
  const w = median(wall);
  console.log(`wasm plan(kimi-k2, ${gpus} GPUs): median ${w.toFixed(3)} s wall, ${median(cpu).toFixed(3)} s CPU over ${runs} runs; ` +
    `${result.candidates_evaluated} evaluated (${(result.candidates_evaluated / w / 1e6).toFixed(2)}M/s), ` +
    `${result.candidates_fitting} fit, ${result.candidates_timed} timed in full (Node ${process.versions.node})`);
}
