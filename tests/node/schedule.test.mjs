// wasm schedule()/scheduleTrace() against `tslab schedule`: byte-identical JSON, errors as Error "path: reason", trace tracks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();

const specs = {
  "1F1B, the defaults": { schedule: "1f1b", ranks: 4, microbatches: 8 },
  "DualPipe with overlapped F&B and a p2p delay": {
    schedule: "dualpipe",
    ranks: 4,
    microbatches: 10,
    costs: { F: 1, B: 2, W: 0.75, FB: 2.5 },
    p2p_s: 0.125,
  },
  "interleaved v = 2 with Kimi K2 extra warm-up": {
    schedule: "interleaved",
    ranks: 4,
    microbatches: 8,
    vpp: 2,
    extra_warmup: 2,
    costs: { F: 0.5, B: 1 },
  },
  "ZB-H2 with costs that do not round in binary": { schedule: "zb-h2", ranks: 3, microbatches: 7, costs: { F: 0.1, B: 0.3, W: 0.2 } },
  "DualPipeV 16 × 64 without ops": { schedule: "dualpipev", ranks: 16, microbatches: 64, timeline: false },
};

for (const [name, spec] of Object.entries(specs)) {
  test(`schedule parity: ${name}`, () => {
    const native = cli(["schedule"], spec);
    assert.equal(native.status, 0, native.stderr);
    const wasm = tslab.schedule(JSON.stringify(spec));
    // The CLI ends its output with one newline; the bytes before it must match exactly.
    assert.equal(native.stdout, `${wasm}\n`);
    const r = JSON.parse(wasm);
    assert.equal(r.schema, "tslab/schedule@1");
    assert.equal(r.ranks.length, spec.ranks);
    assert.equal(r.ops === undefined, spec.timeline === false);
  });
}

/** [case, SPEC, expected JSON path, a fragment of the reason] */
const errors = [
  ["DualPipe with odd PP", { schedule: "dualpipe", ranks: 3, microbatches: 12 }, "ranks", "DualPipe needs an even number of ranks"],
  ["DualPipe with too few micro-batches", { schedule: "dualpipe", ranks: 4, microbatches: 6 }, "microbatches", "m ≥ 2·ranks = 8"],
  ["interleaved divisibility", { schedule: "interleaved", ranks: 4, microbatches: 6, vpp: 2 }, "microbatches", "divisible by ranks = 4"],
  ["a NaN cost (a string in JSON)", { costs: { F: "NaN" } }, "costs.F", "expected a number"],
  ["FB above F + B", { costs: { F: 1, B: 2, FB: 4 } }, "costs.FB", "cannot exceed F + B"],
  ["W above B", { costs: { B: 1, W: 2 } }, "costs.W", "exceeds the full backward"],
  ["zero ranks", { ranks: 0 }, "ranks", "out of range"],
  ["absurd m hits the op cap", { schedule: "dualpipev", ranks: 64, microbatches: 1e9 }, "microbatches", "cap of 2000000 ops"],
  ["unknown schedule", { schedule: "dualpipe-v" }, "schedule", "did you mean dualpipev?"],
  ["misspelt field", { schedule: "1f1b", microbatch: 8 }, "microbatch", "did you mean microbatches?"],
];

for (const [name, spec, path, fragment] of errors) {
  // The op cap is estimated before any op is generated: a schedule of 64 × 1e9 micro-batches that
  // were built would not come back at all, so the test's own timeout (a hang guard, not a speed
  // check) is what fails.
  test(`schedule error: ${name}`, { timeout: 120_000 }, () => {
    const text = JSON.stringify(spec);
    let caught;
    try {
      tslab.schedule(text);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof Error, `expected an Error, got ${typeof caught}: ${caught}`);
    assert.ok(caught.message.startsWith(`${path}: `), caught.message);
    assert.ok(caught.message.includes(fragment), caught.message);
    // The CLI prints the same message and exits 2.
    const native = cli(["schedule"], spec);
    assert.equal(native.status, 2);
    assert.ok(native.stderr.includes(caught.message), native.stderr);
  });
}

test("malformed SPEC JSON is an Error on the document path $", () => {
  assert.throws(
    () => tslab.schedule('{"schedule":'),
    (e) => e instanceof Error && e.message.startsWith("$: truncated JSON"),
  );
});

test("trace export parses, has one named track per rank, and matches the CLI byte for byte", () => {
  const spec = { schedule: "dualpipe", ranks: 6, microbatches: 12, costs: { F: 1, B: 2, W: 1, FB: 2.5 } };
  const text = tslab.scheduleTrace(JSON.stringify(spec));
  const native = cli(["schedule", "--format", "trace"], spec);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(native.stdout, `${text}\n`);
  const trace = JSON.parse(text);
  const names = trace.traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name");
  assert.deepEqual(
    names.map((e) => e.tid),
    [0, 1, 2, 3, 4, 5],
  );
  assert.deepEqual(
    names.map((e) => e.args.name),
    ["rank 0", "rank 1", "rank 2", "rank 3", "rank 4", "rank 5"],
  );
  const blocks = trace.traceEvents.filter((e) => e.ph === "X");
  assert.deepEqual(
    [...new Set(blocks.map((e) => e.tid))].sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5],
  );
  // Same ops as the JSON result, in µs.
  const r = JSON.parse(tslab.schedule(JSON.stringify(spec)));
  assert.equal(blocks.length, r.op_count);
  const last = Math.max(...blocks.map((e) => e.ts + e.dur));
  assert.ok(Math.abs(last - r.makespan_s * 1e6) < 1e-6 * r.makespan_s * 1e6);
});

test("trace errors are Errors with the path too", () => {
  assert.throws(
    () => tslab.scheduleTrace(JSON.stringify({ schedule: "dualpipe", ranks: 5 })),
    (e) => e instanceof Error && e.message.startsWith("ranks: "),
  );
});
