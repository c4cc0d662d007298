// Every core message id has a zh-CN template in web/src/i18n/core/*.zh.json with no parameter the core
// does not give, and the catalog the wasm serves is the CLI's (`tslab messages`).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, loadTslab, repoRoot } from "./tslab_module.mjs";

const tslab = await loadTslab();
const catalog = JSON.parse(tslab.messages());
const catalogDir = join(repoRoot, "web/src/i18n/core");
const zhFiles = readdirSync(catalogDir).filter((f) => f.endsWith(".zh.json"));
const zh = {};
for (const f of zhFiles)
  for (const [id, text] of Object.entries(JSON.parse(readFileSync(join(catalogDir, f), "utf8")))) {
    assert.ok(!(id in zh), `${id} is translated twice (${f})`);
    zh[id] = text;
  }
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

test("messages(): the CLI's catalog byte for byte, sorted, ids unique", () => {
  const r = cli(["messages"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(tslab.messages(), r.stdout.trimEnd());
  assert.equal(catalog.schema, "tslab/messages@1");
  const ids = catalog.messages.map((m) => m.id);
  assert.deepEqual(ids, [...ids].sort());
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.length > 40, `only ${ids.length} ids`);
});

test("every core message id has a zh-CN template using only the core's parameters", () => {
  const missing = catalog.messages.filter((m) => typeof zh[m.id] !== "string").map((m) => m.id);
  assert.deepEqual(missing, [], `untranslated: ${missing.join(", ")}`);
  for (const m of catalog.messages) {
    const extra = placeholders(zh[m.id]).filter((p) => !m.params.includes(p));
    assert.deepEqual(extra, [], `${m.id}: zh uses {${extra.join("}, {")}} which the core never gives`);
  }
  const stale = Object.keys(zh).filter((id) => !catalog.messages.some((m) => m.id === id));
  assert.deepEqual(stale, [], `zh templates for ids the core no longer has: ${stale.join(", ")}`);
});

// Every {id, args} a report carries is registered and gives every parameter of its template.
function checkMessages(value, where) {
  if (Array.isArray(value)) return value.forEach((v, i) => checkMessages(v, `${where}[${i}]`));
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    if (!k.endsWith("_msg")) checkMessages(v, `${where}.${k}`);
    else
      for (const m of [v].flat().filter(Boolean)) {
        const entry = catalog.messages.find((c) => c.id === m.id);
        assert.ok(entry, `${where}.${k}: unregistered id ${m.id}`);
        for (const p of entry.params) assert.equal(typeof m.args[p], "string", `${where}.${k} ${m.id}: no {${p}}`);
      }
  }
}

// Scenarios that reach every kind of clause: 3D parallel, ZeRO + recompute, DualPipe EP overlap and FP8,
// offload, CP, a plan that does not fit.
const scenarios = [
  { model: "llama3-70b", cluster: "dgx-h100", parallel: { dp: 8, tp: 8, pp: 4, sp: true }, training: { seq_len: 4096 } },
  { model: "llama3-70b", cluster: "dgx-h100", parallel: { dp: 64, zero: 3 }, training: { seq_len: 4096, recompute: "full" } },
  {
    model: "deepseek-v3",
    cluster: "hgx-h800",
    parallel: { dp: 64, pp: 16, ep: 64, zero: 1 },
    training: { seq_len: 4096, global_batch: 2048, precision: "fp8-mixed", schedule: "dualpipe", recompute: "selective" },
  },
  {
    model: "kimi-k2",
    cluster: "dgx-b200",
    parallel: { dp: 32, pp: 8, vpp: 2, ep: 32 },
    training: { schedule: "interleaved", offload: { optimizer: 0.5, activations: 0.25 } },
  },
  { model: "gpt-175b", cluster: "dgx-a100-80gb", parallel: { dp: 4, tp: 8, pp: 8, cp: 2, sp: true }, training: { schedule: "gpipe" } },
  { model: "llama3-405b", cluster: "dgx-h100", parallel: { dp: 8 } },
];

test("report messages: registered ids with every parameter; the English text is their rendering", () => {
  for (const scenario of scenarios) {
    const report = JSON.parse(tslab.report(JSON.stringify(scenario)));
    checkMessages(report, scenario.model);
    assert.ok(report.step.bottleneck_msg.length >= 2, `${scenario.model}: the bottleneck names what binds and the trade`);
    for (const l of report.step.ledgers) assert.ok(l.notes_msg.length >= 1, `${scenario.model} ${l.id}: notes as messages`);
  }
  const ctx = JSON.parse(tslab.context(JSON.stringify(scenarios[0])));
  checkMessages(ctx, "context");
  assert.ok(
    ctx.methods.some((m) => !m.available && m.reason_msg),
    "cp 1: every CP method says why it is unavailable",
  );
});

test("an input error carries its reason as a registered message id", () => {
  const r = tslab.raw.report(JSON.stringify({ schema: "tslab/scenario@1", model: "llama3-8b", parallel: { tp: 0 } }));
  assert.equal(r.ok, false);
  const m = JSON.parse(r.error_msg);
  assert.ok(
    catalog.messages.some((c) => c.id === m.id),
    `unregistered ${m.id}`,
  );
  assert.ok(zh[m.id], `no zh-CN for ${m.id}`);
});
