// presets().vocabulary: every schedule row has the contract's fields, and web/src names no row of a core vocabulary itself.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { exemptMarker, stringLiterals } from "./source_literals.mjs";
import { repoRoot, loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();
const vocabulary = JSON.parse(tslab.presets()).vocabulary;

test("presets().vocabulary has every part the lab builds its selects from", () => {
  assert.equal(typeof vocabulary, "object", "presets() has a vocabulary");
  for (const part of ["schedules", "optimizers", "precision_recipes", "recompute_modes", "dtypes", "cp_methods", "mesh_axes"]) {
    assert.ok(Array.isArray(vocabulary[part]) && vocabulary[part].length > 0, part);
    for (const row of vocabulary[part]) assert.equal(typeof row.name, "string", `${part}: name`);
  }
  assert.equal(typeof vocabulary.recommended_order, "string");
  assert.equal(typeof vocabulary.defaults.cluster, "string");
  for (const part of ["training", "parallel"]) assert.equal(typeof vocabulary.defaults[part], "object", `defaults.${part}`);
});

test("every schedule row has the contract's fields, in types the lab reads", () => {
  const fields = {
    name: "string",
    label: "string",
    placement: "string",
    chunks_per_rank: "string",
    uses_vpp: "boolean",
    param_copies: "number",
    split_backward: "boolean",
    ep_overlap: "boolean",
    min_pp: "number",
    pp_multiple: "number",
    microbatch_rule: "string",
    bubble_formula: "string",
    inflight_formula: "string",
    source: "string",
  };
  for (const row of vocabulary.schedules) {
    for (const [field, type] of Object.entries(fields)) assert.equal(typeof row[field], type, `${row.name}.${field}`);
    assert.ok(["linear", "v_shape", "dual"].includes(row.placement), `${row.name}.placement`);
    assert.ok(["1", "2", "vpp"].includes(row.chunks_per_rank), `${row.name}.chunks_per_rank`);
    assert.equal(row.uses_vpp, row.chunks_per_rank === "vpp", `${row.name}: uses_vpp iff chunks_per_rank is vpp`);
  }
  // The lab's pipeline trial pairs the default schedule with the dual one (DualPipe): both must exist.
  assert.ok(vocabulary.schedules.some((s) => s.name === vocabulary.defaults.training.schedule));
  assert.ok(vocabulary.schedules.some((s) => s.placement === "dual"));
});

test("the defaults name rows of their vocabularies, and a report with no training block uses them", () => {
  const names = (part) => vocabulary[part].map((r) => r.name);
  const d = vocabulary.defaults.training;
  assert.ok(names("schedules").includes(d.schedule));
  assert.ok(names("optimizers").includes(d.optimizer));
  assert.ok(names("precision_recipes").includes(d.precision));
  assert.ok(names("recompute_modes").includes(d.recompute));
  const bare = JSON.parse(tslab.report(JSON.stringify({ model: "llama3-8b" })));
  assert.equal(bare.scenario.schedule, d.schedule);
  assert.equal(bare.scenario.optimizer, d.optimizer);
  assert.equal(bare.scenario.recompute, d.recompute);
  assert.equal(bare.scenario.cluster, vocabulary.defaults.cluster);
});

/** Source files of the lab, without the generated types and the wasm build output. */
function labSources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = relative(join(repoRoot, "web/src"), path);
    if (rel === "wasm" || rel.startsWith("types/generated")) continue;
    if (statSync(path).isDirectory()) out.push(...labSources(path));
    else if (/\.(ts|mjs|js|astro)$/.test(name)) out.push(path);
  }
  return out;
}

// Every closed vocabulary whose names are words of its own (the mesh axes and dtypes, "tp" or "bf16",
// double as keys and units of the report itself and stay out).
const guarded = [
  "schedules",
  "optimizers",
  "precision_recipes",
  "recompute_modes",
  "cp_methods",
  "routing_kinds",
  "scaling_recipes",
  "attention_types",
  "ffn_types",
  "norms",
];

test("no string literal in web/src names a row of a core vocabulary (they come from the core)", () => {
  for (const part of guarded) assert.ok(vocabulary[part]?.length > 0, part);
  // A name that is also a dtype, a collective or a mesh axis ("bf16", "allgather") is that word where the UI uses it.
  const words = new Set(["dtypes", "collectives", "mesh_axes"].flatMap((p) => vocabulary[p].map((r) => r.name)));
  const names = new Set(guarded.flatMap((p) => vocabulary[p].map((r) => r.name)).filter((n) => !words.has(n)));
  const hits = [];
  const files = labSources(join(repoRoot, "web/src"));
  assert.ok(files.length > 20, "scanned the lab's sources");
  for (const file of files) {
    const src = readFileSync(file, "utf8");
    const lines = src.split("\n");
    for (const { text, line } of stringLiterals(src))
      if (names.has(text) && !lines[line - 1].includes(exemptMarker)) hits.push(`${relative(repoRoot, file)}:${line}: "${text}"`);
  }
  assert.deepEqual(hits, [], `names copied into the UI:\n${hits.join("\n")}`);
});
