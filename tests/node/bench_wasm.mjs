// Benchmark of the wasm report() on the DeepSeek-V3 preset, plus the gzip size of the module. Prints, asserts nothing.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync, constants } from "node:zlib";
import { loadTslab, repoRoot, wasmDir } from "./tslab_module.mjs";

const runs = Number(process.env.TSLAB_BENCH_RUNS ?? 5000);
const scenarios = {
  "deepseek-v3 preset, default plan": { model: "deepseek-v3" },
  "deepseek-v3, DualPipe PP16 EP64 FP8 on H800": {
    model: "deepseek-v3",
    cluster: "hgx-h800",
    parallel: { dp: 64, pp: 16, ep: 64, zero: 1 },
    training: { seq_len: 4096, precision: "fp8-mixed", schedule: "dualpipe" },
  },
};

const tslab = await loadTslab();
// Every model preset on its own, as tests/bench/bench_report.cpp's bm_report_json_preset/NAME times
// the native report (TSLAB_BENCH_PRESETS=0 skips them).
if (process.env.TSLAB_BENCH_PRESETS !== "0")
  for (const name of Object.keys(JSON.parse(tslab.presets()).models)) scenarios[`preset ${name}`] = { model: name };
for (const [name, scenario] of Object.entries(scenarios)) {
  const text = JSON.stringify(scenario);
  for (let i = 0; i < 200; i++) tslab.report(text); // warm-up: JIT tiers and memory growth
  const times = new Float64Array(runs);
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    tslab.report(text);
    times[i] = Number(process.hrtime.bigint() - t0) / 1e3;
  }
  times.sort();
  const q = (p) => times[Math.min(runs - 1, Math.floor(p * runs))].toFixed(1);
  console.log(
    `wasm report(${name}): median ${q(0.5)} µs, p10 ${q(0.1)} µs, p90 ${q(0.9)} µs, p95 ${q(0.95)} µs over ${runs} runs (Node ${process.versions.node})`,
  );
}

const gz = (buf) => gzipSync(buf, { level: constants.Z_BEST_COMPRESSION }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const wasm = readFileSync(join(wasmDir, "tslab.wasm"));
const js = readFileSync(join(wasmDir, "tslab.mjs"));
console.log(
  `module: tslab.wasm ${kb(wasm.length)} raw, ${kb(gz(wasm))} gzip; tslab.mjs ${kb(js.length)} raw, ${kb(gz(js))} gzip; wasm+JS ${kb(gz(wasm) + gz(js))} gzip`,
);

// The lab as shipped by the built site (the lab's JS bundle includes tslab.mjs), when site/dist exists.
const assets = join(repoRoot, "site/dist/_astro");
if (existsSync(assets)) {
  let jsTotal = 0;
  let wasmTotal = 0;
  for (const f of readdirSync(assets)) {
    const n = gz(readFileSync(join(assets, f)));
    if (f.endsWith(".js")) jsTotal += n;
    if (f.endsWith(".wasm")) wasmTotal += n;
  }
  console.log(`site bundle (site/dist/_astro): JS ${kb(jsTotal)} gzip + wasm ${kb(wasmTotal)} gzip = ${kb(jsTotal + wasmTotal)} gzip`);
}
