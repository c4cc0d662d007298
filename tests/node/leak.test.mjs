// Long use: many failed calls of each kind leave the wasm stack pointer, heap and memory where they
// were, and a good call then returns the same bytes (issue 15, finding 1). TSLAB_LEAK_CALLS sets the
// calls per kind: 20,000 in the suite, 200,000 for the long run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadTslab } from "./tslab_module.mjs";

const calls = Number(process.env.TSLAB_LEAK_CALLS ?? 20000);
const tslab = await loadTslab();
const raw = tslab.raw;

// A ~10 KB scenario with an unknown field at the end: each failed call used to leak about its size.
const padding = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`k${i}`, "x".repeat(12)]));
const bigUnknown = JSON.stringify({ model: "llama3-8b", training: { micro_batch: 1 }, notes: padding });
const deep = `{"model":{"x":${"[".repeat(5000)}1${"]".repeat(5000)}}}`;

/** [kind, a call that must fail, a fragment of its message] */
const failing = [
  ["report: unknown field (10 KB)", () => raw.report(bigUnknown), "notes: unknown field"],
  ["report: tp 12", () => raw.report(JSON.stringify({ model: "llama3-8b", parallel: { tp: 12 } })), "parallel.tp"],
  ["report: deep nesting", () => raw.report(deep), "nested deeper than 64"],
  ["report: 1e400", () => raw.report('{"model":{"layers":1e400}}'), "model.layers"],
  ["planStep without a search", () => raw.planStep(1000), "planStart"],
  ["planStep NaN budget", () => raw.planStep(NaN), ""],
  ["planStart bad scenario", () => raw.planStart('{"parallel":{"tp":0}}', ""), "parallel.tp"],
  ["schedule: bad spec", () => raw.schedule('{"schedule":"2f2b"}'), "schedule"],
  ["scheduleTrace: malformed", () => raw.scheduleTrace('{"schedule":'), "truncated JSON"],
  ["collective: unknown op", () => raw.collective('{"op":"allsum","bytes":1,"ranks":2}'), "op"],
  ["mesh: bad degree", () => raw.mesh('{"tp":0}'), "tp"],
  ["validateProfile: not a profile", () => raw.validateProfile("[1,2]"), "$: expected an object"],
  ["loadProfile: not a profile", () => raw.loadProfile("lab", '{"schema":"x"}'), "schema"],
];

const good = JSON.stringify({ model: "llama3-8b", parallel: { dp: 8 } });
const stats = () => JSON.parse(raw.memoryStats());

test(`${calls} failed calls of each of ${failing.length} kinds leave stack, heap and memory flat`, () => {
  const before = tslab.report(good);
  for (const [kind, fn, fragment] of failing) {
    const first = fn();
    assert.equal(first.ok, false, `${kind} should fail`);
    assert.ok(first.error.includes(fragment), `${kind}: "${first.error}" should mention "${fragment}"`);
    for (let i = 0; i < 100; i++) fn();
    const settled = stats();
    for (let i = 100; i < calls; i++) fn();
    const after = stats();
    assert.equal(after.stack_pointer, settled.stack_pointer, `${kind}: the stack pointer moved`);
    assert.equal(after.memory_bytes, settled.memory_bytes, `${kind}: memory grew`);
    assert.ok(after.heap_in_use - settled.heap_in_use <= 4096, `${kind}: heap in use grew by ${after.heap_in_use - settled.heap_in_use} bytes`);
  }
  assert.equal(tslab.report(good), before, "a good call returns the same bytes as before");
});
