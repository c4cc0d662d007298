// Benchmark of the wasm planner: the exhaustive search for Kimi K2 on dgx-h100 by GPU count (the speed
// goal is 4096 GPUs in under 2 s), in one plan() call and as the lab runs it: one part per core, each in
// its own worker thread and wasm instance, merged by planMerge (the page's Web Workers do the same).
// Prints wall-clock medians and the candidate counts; asserts nothing. TSLAB_BENCH_RUNS runs per case
// (default 3), TSLAB_BENCH_GPUS a comma list, TSLAB_BENCH_PARTS the parts (default: the cores).
import { availableParallelism } from "node:os";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { loadTslab } from "./tslab_module.mjs";

// The scenario of tests/bench/bench_plan.cpp.
const scenario = JSON.stringify({
  model: "kimi-k2",
  cluster: "dgx-h100",
  parallel: { dp: 8 },
  training: { seq_len: 4096, global_batch: 4096 },
});
const optionsFor = (gpus) => JSON.stringify({ gpus, max_candidates: 1_000_000_000 });

if (!isMainThread) {
  // A part's worker: loads its module, then runs each part it is sent and answers with the part's state.
  const tslab = await loadTslab();
  parentPort.on("message", ({ gpus, part, parts }) => {
    tslab.planPartStart(scenario, optionsFor(gpus), part, parts);
    while (!JSON.parse(tslab.planStep(1_000_000)).done);
    parentPort.postMessage(tslab.planPartState());
    tslab.planCancel();
  });
  parentPort.postMessage("ready");
} else {
  const runs = Number(process.env.TSLAB_BENCH_RUNS ?? 3);
  const gpuCounts = (process.env.TSLAB_BENCH_GPUS ?? "512,1024,2048,4096,8192").split(",").map(Number);
  const parts = Number(process.env.TSLAB_BENCH_PARTS ?? availableParallelism());
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const tslab = await loadTslab();
  tslab.plan(scenario, JSON.stringify({ gpus: 64 })); // warm-up: JIT tiers and memory growth
  const workers = await Promise.all(
    Array.from(
      { length: parts },
      () =>
        new Promise((ok) => {
          const w = new Worker(new URL(import.meta.url));
          w.once("message", () => ok(w));
        }),
    ),
  );
  const inParts = (gpus) =>
    Promise.all(
      workers.map(
        (w, part) =>
          new Promise((ok) => {
            w.once("message", ok);
            w.postMessage({ gpus, part, parts });
          }),
      ),
    );
  for (const gpus of gpuCounts) {
    const one = [];
    const split = [];
    let result;
    for (let i = 0; i < runs; i++) {
      let t0 = process.hrtime.bigint();
      result = JSON.parse(tslab.plan(scenario, optionsFor(gpus)));
      one.push(Number(process.hrtime.bigint() - t0) / 1e9);
      t0 = process.hrtime.bigint();
      const states = await inParts(gpus);
      const merged = JSON.parse(tslab.planMerge(scenario, optionsFor(gpus), `[${states.join(",")}]`));
      split.push(Number(process.hrtime.bigint() - t0) / 1e9);
      if (JSON.stringify(merged.top) !== JSON.stringify(result.top)) throw new Error(`${gpus} GPUs: the parts' merge lists other plans`);
    }
    console.log(
      `wasm plan(kimi-k2, ${gpus} GPUs): one instance median ${median(one).toFixed(3)} s; ${parts} parts in worker threads ` +
        `median ${median(split).toFixed(3)} s (merge included); ${result.candidates_evaluated} evaluated, ${result.candidates_fitting} fit, ` +
        `${result.candidates_timed} timed in full (Node ${process.versions.node})`,
    );
  }
  await Promise.all(workers.map((w) => w.terminate()));
}
