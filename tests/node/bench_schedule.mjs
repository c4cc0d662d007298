// Benchmark of the wasm schedule() (generate + validate + simulate, timeline: false) on the two targets
// and a p·m·v sweep. Prints wall-clock and CPU-time medians (CPU time is steadier on a shared machine); asserts nothing.
import { loadTslab } from "./tslab_module.mjs";

const runs = Number(process.env.TSLAB_BENCH_RUNS ?? 21);
const costs = { F: 1, B: 2, W: 1, FB: 2.5 };
const cases = [
  ["dualpipev p=64 m=512", { schedule: "dualpipev", ranks: 64, microbatches: 512 }],
  ["interleaved p=64 m=512 v=4", { schedule: "interleaved", ranks: 64, microbatches: 512, vpp: 4 }],
  ["interleaved p=16 m=128 v=4 (pmv/16)", { schedule: "interleaved", ranks: 16, microbatches: 128, vpp: 4 }],
  ["interleaved p=128 m=1024 v=4 (pmv×8)", { schedule: "interleaved", ranks: 128, microbatches: 1024, vpp: 4 }],
  ["dualpipev p=32 m=256 (pm/4)", { schedule: "dualpipev", ranks: 32, microbatches: 256 }],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tslab = await loadTslab();
for (const [name, spec] of cases) {
  const text = JSON.stringify({ ...spec, costs, p2p_s: 0.05, timeline: false });
  const opCount = JSON.parse(tslab.schedule(text)).op_count;
  for (let i = 0; i < 3; i++) tslab.schedule(text); // warm-up: JIT tiers and memory growth
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    tslab.schedule(text);
    wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e3);
  }
  const w = median(wall);
  console.log(
    `wasm schedule(${name}): median ${w.toFixed(2)} ms wall, ${median(cpu).toFixed(2)} ms CPU, ` +
      `${((w * 1e6) / opCount).toFixed(0)} ns/op over ${opCount} ops, ${runs} runs (Node ${process.versions.node})`,
  );
}
