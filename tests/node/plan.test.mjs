// The planner in wasm: plan() equals `tslab plan --format json` (elapsed_s aside), the sliced
// planStart/planStep/planResult API gives the same result, cancel and bad options throw.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();

const scenario = {
  model: "gpt-1.7b",
  cluster: "dgx-a100-80gb",
  parallel: { dp: 8 },
  training: { seq_len: 2048, global_batch: 16 },
};

// The one field that depends on timing: drop its line from the text.
const withoutElapsed = (text) =>
  text
    .split("\n")
    .filter((l) => !l.includes('"elapsed_s"'))
    .join("\n");
// A native search split over threads finds the same plans; how many it timed in full and its
// pipeline-cache counts depend on what each part had found when it pruned (core planner.hpp).
const searchResult = (text) => {
  const j = JSON.parse(text);
  for (const k of ["elapsed_s", "candidates_timed", "pipeline_cache"]) delete j[k];
  return j;
};

test("plan parity: wasm plan() and the CLI on one thread return the same JSON apart from elapsed_s", () => {
  const native = cli(["plan", "--top", "3", "--threads", "1"], scenario);
  assert.equal(native.status, 0, native.stderr);
  const wasm = tslab.plan(JSON.stringify(scenario), JSON.stringify({ top: 3 }));
  assert.equal(withoutElapsed(native.stdout.trimEnd()), withoutElapsed(wasm));
  const j = JSON.parse(wasm);
  assert.equal(j.schema, "tslab/plan@1");
  assert.equal(j.top.length, 3);
  assert.equal(j.complete, true);
  assert.ok(j.candidates_evaluated > 0);
  assert.ok(j.candidates_timed >= 1 && j.candidates_timed <= j.candidates_fitting);
  assert.ok(j.pareto.length >= 1);
  // The front stops at pareto_window × the fastest plan's step time (core planner.hpp).
  assert.equal(j.pareto_window, 2);
  const fastest = Math.min(...j.top.map((e) => e.time_s));
  for (const e of j.pareto) assert.ok(e.time_s <= j.pareto_window * fastest * (1 + 1e-9), `${e.time_s} past the window`);
});

test("plan parity on DeepSeek-V3 on 256 GPUs: one plan per distinct layout, in the same order in both builds", () => {
  // The top list keeps the fastest plan of each (dp, tp, pp, cp, ep); ties between plans of one
  // layout are settled in search order (planner.cpp ranks_before), so both builds list the same,
  // and so does the native search split over 3 threads (planner_run.cpp merges its parts).
  const dsv3 = { model: "deepseek-v3", cluster: "dgx-h100", parallel: { dp: 8 }, training: { seq_len: 4096, global_batch: 64 } };
  const native = cli(["plan", "--gpus", "256", "--top", "8", "--threads", "3"], dsv3);
  assert.equal(native.status, 0, native.stderr);
  const wasm = tslab.plan(JSON.stringify(dsv3), JSON.stringify({ gpus: 256, top: 8 }));
  assert.deepEqual(searchResult(native.stdout), searchResult(wasm));
  const top = JSON.parse(wasm).top;
  assert.equal(top.length, 8);
  const layouts = top.map(({ parallel: q }) => `${q.dp}/${q.tp}/${q.pp}/${q.cp}/${q.ep}`);
  assert.equal(new Set(layouts).size, layouts.length, `layouts repeat: ${layouts.join(", ")}`);
  const times = top.map((e) => e.time_s);
  assert.deepEqual(
    [...times].sort((x, y) => x - y),
    times,
    "ordered by step time",
  );
});

test("plan parity with options.fixed: --fix and the fixed array hold the same knobs in both builds", () => {
  const native = cli(["plan", "--top", "3", "--threads", "1", "--fix", "zero,recompute"], scenario);
  assert.equal(native.status, 0, native.stderr);
  const wasm = tslab.plan(JSON.stringify(scenario), JSON.stringify({ top: 3, fixed: ["zero", "recompute"] }));
  assert.equal(withoutElapsed(native.stdout.trimEnd()), withoutElapsed(wasm));
  const free = JSON.parse(tslab.plan(JSON.stringify(scenario), JSON.stringify({ top: 3 })));
  const held = JSON.parse(wasm);
  // No scenario rule reads the ZeRO stage or recompute: each held knob keeps a quarter of the plans.
  assert.equal(held.candidates_evaluated * 16, free.candidates_evaluated);
  for (const e of held.top) assert.equal(e.parallel.zero, 0);
  const bad = cli(["plan", "--fix", "zero,zeroo"], scenario);
  assert.equal(bad.status, 2);
  assert.match(
    bad.stderr,
    /options\.fixed\[1\]: unknown value "zeroo"; expected one of zero\|recompute\|sp\|tp_overlap\|offload\|cp \(did you mean zero\?\)/,
  );
  assert.throws(() => tslab.plan(JSON.stringify(scenario), JSON.stringify({ fixed: "zero" })), /options\.fixed: expected an array, got a string/);
});

test("search in parts: planPartStart/planPartState in each of 2 and 3 parts, then planMerge, equals plan()", () => {
  // As the lab's Web Workers run it: one part per module instance; here one instance runs them in turn.
  const dsv3 = JSON.stringify({
    model: { preset: "deepseek-v3", layers: 8 },
    cluster: "dgx-h100",
    parallel: { dp: 8 },
    training: { seq_len: 4096, global_batch: 64 },
  });
  const options = JSON.stringify({ gpus: 64 });
  const one = searchResult(tslab.plan(dsv3, options));
  for (const parts of [2, 3]) {
    const states = [];
    for (let part = 0; part < parts; part++) {
      const start = JSON.parse(tslab.planPartStart(dsv3, options, part, parts));
      assert.equal(start.done, false);
      while (!JSON.parse(tslab.planStep(50_000)).done);
      const state = tslab.planPartState();
      assert.equal(JSON.parse(state).schema, "tslab/plan-part@1");
      states.push(state);
    }
    tslab.planCancel();
    assert.deepEqual(searchResult(tslab.planMerge(dsv3, options, `[${states.join(",")}]`)), one, `${parts} parts`);
  }
  assert.throws(() => tslab.planPartStart(dsv3, options, 3, 2), /^Error: part: 3 is out of range \[0, 1\]$/);
  assert.throws(() => tslab.planPartStart(dsv3, options, 0, 0.5), /^Error: parts: 0\.5 is out of range \[1, 64\]$/);
  assert.throws(() => tslab.planMerge(dsv3, options, "[]"), /^Error: parts: must be a non-empty array$/);
  assert.throws(() => tslab.planMerge(dsv3, options, "[{}]"), /^Error: parts\[0\]\.schema: does not belong to this search/);
  assert.throws(() => tslab.planMerge(dsv3, options, "[1,"), /^Error: parts: /);
  assert.throws(() => tslab.planPartState(), /plan: no search in progress/);
});

test("sliced search: planStep progress grows to done and planResult equals plan()", () => {
  let p = JSON.parse(tslab.planStart(JSON.stringify(scenario), JSON.stringify({ top: 3 })));
  assert.equal(p.done, false);
  let steps = 0;
  let last = 0;
  while (!p.done) {
    p = JSON.parse(tslab.planStep(500));
    assert.ok(p.considered >= last);
    assert.ok(p.timed <= p.fitting && p.fitting <= p.evaluated);
    last = p.considered;
    steps += 1;
  }
  assert.ok(steps > 1);
  const sliced = withoutElapsed(tslab.planResult());
  assert.equal(sliced, withoutElapsed(tslab.plan(JSON.stringify(scenario), JSON.stringify({ top: 3 }))));
  tslab.planCancel();
  assert.throws(() => tslab.planStep(10), /plan: no search in progress/);
});

test("plan errors: bad options and bad scenarios throw path: reason", () => {
  assert.throws(() => tslab.plan(JSON.stringify(scenario), JSON.stringify({ top: 0 })), /options\.top: 0 is out of range/);
  assert.throws(() => tslab.plan(JSON.stringify(scenario), '{"gpu": 8}'), /options\.gpu: unknown field/);
  assert.throws(() => tslab.planStart(JSON.stringify({ model: "gpt-2" }), ""), /unknown model preset/);
});
