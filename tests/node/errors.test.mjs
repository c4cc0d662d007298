// Bad input reaches JS as an Error whose message is "json.path: reason", the same text the CLI prints.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();

/** [case, scenario text, expected JSON path, a fragment of the reason] */
const cases = [
  ["tp does not divide heads", { model: "llama3-8b", parallel: { tp: 12 } }, "parallel.tp", "12 does not divide model.heads = 32"],
  [
    "global batch not a multiple",
    { model: "llama3-8b", parallel: { dp: 4 }, training: { micro_batch: 2, global_batch: 12 } },
    "training.global_batch",
    "not a multiple",
  ],
  ["negative degree", { parallel: { dp: -2 } }, "parallel.dp", ""],
  ["zero stage out of range", { parallel: { zero: 4 } }, "parallel.zero", ""],
  ["misspelt field", { training: { micro_bacth: 2 } }, "training.micro_bacth", "micro_batch"],
  ["unknown model preset", { model: "llama3-7b" }, "model", ""],
  ["unknown schedule", { training: { schedule: "2f2b" } }, "training.schedule", ""],
  ["ep on a dense model", { model: "llama3-8b", parallel: { dp: 4, ep: 2 } }, "parallel.ep", ""],
  ["offload fraction above 1", { training: { offload: { optimizer: 1.5 } } }, "training.offload.optimizer", ""],
  ["absurd sequence length", { training: { seq_len: 1e12 } }, "training.seq_len", ""],
];

for (const [name, scenario, path, fragment] of cases) {
  test(`error: ${name}`, () => {
    const text = JSON.stringify(scenario);
    let caught;
    try {
      tslab.report(text);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof Error, `expected an Error, got ${typeof caught}: ${caught}`);
    assert.ok(caught.message.startsWith(`${path}`), `message "${caught.message}" should start with ${path}`);
    assert.match(caught.message, /^[\w.[\]]*: \S/, "message is 'path: reason'");
    if (fragment) assert.ok(caught.message.includes(fragment), `message "${caught.message}" should mention "${fragment}"`);
    // The outcome carries the path and the reason apart, so no UI code splits the text.
    const outcome = tslab.raw.report(text);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error_path, path);
    assert.equal(outcome.error, `${outcome.error_path}: ${outcome.error_reason}`);
    assert.ok(JSON.parse(outcome.error_msg).id, "a message id");
    // The CLI rejects the same input with exit status 2 and the same message.
    const native = cli(["report"], text);
    assert.equal(native.status, 2);
    assert.ok(native.stderr.includes(caught.message), `CLI stderr "${native.stderr.trim()}" should contain "${caught.message}"`);
  });
}

test("malformed JSON is an Error, not a crash", () => {
  assert.throws(
    () => tslab.report('{"model": '),
    (e) => e instanceof Error && /^\$: truncated JSON at byte \d+/.test(e.message),
  );
});

test("the module keeps working after errors", () => {
  for (let i = 0; i < 50; i++) assert.throws(() => tslab.report(JSON.stringify({ parallel: { tp: 7 } })), Error);
  const r = JSON.parse(tslab.report("{}"));
  assert.equal(r.schema, "tslab/report@1");
});
