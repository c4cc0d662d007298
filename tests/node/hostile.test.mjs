// The wasm facade under mutated input (issue 15, finding 7 of the plan): seeds from tests/fuzz/seeds,
// mutated by byte flips, splices and dictionary words, drive every entry point; each call returns an
// Outcome (never throws), and the stack pointer and memory stay flat. TSLAB_MUTATIONS sets the number
// of inputs (3,000 in the suite); TSLAB_MUTATION_SECONDS instead runs for that long (the 10-minute run).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadRawTslab, repoRoot } from "./tslab_module.mjs";

const count = Number(process.env.TSLAB_MUTATIONS ?? 3000);
const seconds = Number(process.env.TSLAB_MUTATION_SECONDS ?? 0);
const raw = await loadRawTslab();
const seedsDir = join(repoRoot, "tests/fuzz/seeds");
const words = readFileSync(join(repoRoot, "tests/fuzz/fields.dict"), "utf8")
  .split("\n")
  .filter((l) => /^\w+=".*"$/.test(l))
  .map((l) => JSON.parse(l.slice(l.indexOf("=") + 1)));

/** Entry point per seed folder; each takes the mutated text. */
const entries = {
  report: (t) => raw.report(t),
  schedule: (t) => raw.schedule(t),
  collective: (t) => raw.collective(t),
  mesh: (t) => raw.mesh(t),
  plan: (t) => raw.plan(t, '{"max_seconds":0.05,"top":2}'),
  profile: (t) => raw.validateProfile(t),
};
const seeds = Object.keys(entries).flatMap((kind) =>
  readdirSync(join(seedsDir, kind)).map((f) => [kind, readFileSync(join(seedsDir, kind, f), "utf8")]),
);

let state = 12345; // a fixed LCG: the same inputs every run
const rand = (n) => (state = (state * 1103515245 + 12345) % 2147483648) % n;

function mutate(text) {
  let s = text;
  for (let k = 1 + rand(4); k > 0; k--) {
    const at = rand(s.length + 1);
    switch (rand(5)) {
      case 0:
        s = s.slice(0, at) + String.fromCharCode(32 + rand(95)) + s.slice(at + 1);
        break;
      case 1:
        s = s.slice(0, at) + words[rand(words.length)] + s.slice(at);
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at + 1 + rand(8));
        break;
      case 3:
        s = s.slice(0, at) + String(10 ** rand(400) * (rand(2) ? -1 : 1)) + s.slice(at);
        break;
      default:
        s = s.slice(0, at) + "[".repeat(rand(100)) + s.slice(at);
        break;
    }
  }
  return s;
}

const what = seconds > 0 ? `${seconds} s of` : `${count}`;
test(`${what} mutated inputs to every entry point: outcomes only, stack and memory flat`, () => {
  const stats = () => JSON.parse(raw.memoryStats());
  for (let i = 0; i < 200; i++) {
    const [k, s] = seeds[i % seeds.length];
    entries[k](mutate(s));
  }
  const before = stats();
  let ok = 0;
  const end = Date.now() + seconds * 1000;
  let i = 0;
  for (; seconds > 0 ? Date.now() < end : i < count; i++) {
    const [kind, seed] = seeds[rand(seeds.length)];
    const r = entries[kind](mutate(seed));
    assert.equal(typeof r.ok, "boolean", `${kind}: not an Outcome`);
    if (r.ok) {
      JSON.parse(r.value);
      ok++;
    } else assert.ok(/^\S.*?: \S/s.test(r.error) && !/json\.exception|internal error/.test(r.error), `${kind}: untyped error "${r.error}"`);
  }
  const after = stats();
  if (seconds > 0)
    console.log(
      `mutation run: ${i} inputs in ${seconds} s (${Math.round(i / seconds)}/s), ${ok} valid; memory ${before.memory_bytes} -> ${after.memory_bytes} bytes`,
    );
  assert.equal(after.stack_pointer, before.stack_pointer, "the stack pointer moved");
  assert.ok(after.memory_bytes <= before.memory_bytes + (64 << 20), `memory grew from ${before.memory_bytes} to ${after.memory_bytes}`);
  assert.ok(ok > 0, "some mutated inputs are still valid");
});

test("a loaded profile is kept once and named by scenarios; a large one is refused", () => {
  const text = readFileSync(join(repoRoot, "tests/data/calibration/cpu-2rank-quick.json"), "utf8");
  const summary = raw.loadProfile("lab", text);
  assert.ok(summary.ok, summary.error);
  const named = raw.report(JSON.stringify({ cluster: { preset: "dgx-h100", calibration: "lab" } }));
  const inline = raw.report(JSON.stringify({ cluster: { preset: "dgx-h100", calibration: JSON.parse(text) } }));
  assert.ok(named.ok, named.error);
  assert.equal(named.value, inline.value);
  assert.ok(raw.loadedValidation("lab", "").ok);
  raw.dropProfile("lab");
  assert.match(raw.report(JSON.stringify({ cluster: { calibration: "lab" } })).error, /^cluster\.calibration: no profile "lab" is loaded/);
  const huge = raw.loadProfile("big", " ".repeat(5 << 20));
  assert.match(huge.error, /^\$: \d+ bytes of JSON exceed the input limit of 4194304 bytes/);
  assert.equal(JSON.parse(raw.inputLimits()).max_bytes, 4194304);
});
