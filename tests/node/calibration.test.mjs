// Calibration in the wasm build: validateProfile's summary, bad profiles, and CLI parity with cluster.calibration.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, loadTslab, repoRoot } from "./tslab_module.mjs";

const tslab = await loadTslab();
const dataDir = join(repoRoot, "tests/data/calibration");
const read = (name) => readFileSync(join(dataDir, name), "utf8");
const exampleText = read("cpu-2rank-quick.json");
const example = JSON.parse(exampleText);

function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail("expected an Error");
}

test("validateProfile accepts the CPU example and reports its source", () => {
  const s = JSON.parse(tslab.validateProfile(exampleText));
  assert.equal(s.schema, "tslab/calibration-summary@1");
  // The source contract (calibration.hpp, source()): first device's name or the backend, ×ranks, the date.
  const device = example.devices[0]?.name ?? example.backend;
  assert.equal(s.source, `calibrated: ${device} ×${example.ranks}, ${example.created.slice(0, 10)}`);
  assert.equal(s.backend, "cpu");
  assert.equal(s.ranks, 2);
  assert.equal(s.nodes, 1);
  assert.equal(s.complete, true);
  assert.equal(s.probes.collective_fits, example.collectives.length);
});

test("the CPU example replaces the intra-node link: bus bandwidth factor(2)/beta of its 2-rank AllReduce", () => {
  const s = JSON.parse(tslab.validateProfile(exampleText));
  const ar = example.collectives.find((c) => c.op === "allreduce" && c.ranks === 2 && c.scope === "intra");
  const intra = s.replaces.find((f) => f.id === "intra_node");
  assert.ok(intra, JSON.stringify(s.replaces));
  assert.equal(intra.from, "allreduce ×2 intra");
  // nccl-tests AllReduce busbw factor 2(n-1)/n = 1 at n = 2 (doc/PERFORMANCE.md): bandwidth = 1/beta, latency = alpha.
  assert.ok(Math.abs(intra.bandwidth_Bps * ar.beta_s_per_byte - 1) < 1e-12);
  assert.equal(intra.latency_s, ar.alpha_s);
  // A CPU run measures no device copy, no pinned host link and no GEMM: nothing else is replaced.
  assert.deepEqual(
    s.replaces.map((f) => f.id),
    ["intra_node"],
  );
});

/** [file, JSON path the message must start with, a fragment of the reason] — see tests/data/calibration/README.md */
const bad = [
  ["truncated.json", "", "truncated JSON at byte"],
  ["malformed.json", "", "malformed JSON at byte"],
  ["wrong-schema.json", "schema", '"tslab/calibration@2" is not supported; expected tslab/calibration@1'],
  ["negative.json", "collectives[0].samples[2].time_s", "must not be negative, got -0.0001"],
  ["negative-bandwidth.json", "memory.host_memcpy_Bps", "must not be negative"],
];

for (const [file, path, fragment] of bad) {
  test(`validateProfile rejects ${file} with its path and reason`, () => {
    const e = thrown(() => tslab.validateProfile(read(file)));
    assert.ok(e instanceof Error, `a JS Error, got ${typeof e}`);
    if (path) assert.ok(e.message.startsWith(`${path}: `), e.message);
    assert.ok(e.message.includes(fragment), e.message);
    // The CLI says the same about the same file, after the file name.
    const native = cli(["validate", join(dataDir, file)]);
    assert.equal(native.status, 2, native.stdout);
    // (A whole-document error reads "$: reason" in wasm and "FILE: reason" in the CLI.)
    assert.ok(native.stderr.includes(e.message.split("\n")[0].replace(/^\$: /, "").slice(0, 60)), native.stderr);
  });
}

test("the same bad profile inside a scenario is reported under cluster.calibration", () => {
  const profile = JSON.parse(read("negative.json"));
  const e = thrown(() => tslab.report(JSON.stringify({ cluster: { preset: "dgx-h100", calibration: profile } })));
  assert.ok(e.message.startsWith("cluster.calibration.collectives[0].samples[2].time_s: must not be negative"), e.message);
});

const scenarios = {
  "gpt-1.7b DP 2 on a 2-GPU node (the ctest scenario)": {
    schema: "tslab/scenario@1",
    model: "gpt-1.7b",
    parallel: { dp: 2 },
    cluster: { preset: "dgx-a100-80gb", nodes: 1, gpus_per_node: 2 },
  },
  "llama3-70b 3D parallel on DGX H100 (the lab's default)": {
    model: "llama3-70b",
    cluster: { preset: "dgx-h100" },
    parallel: { dp: 8, tp: 8, pp: 4, sp: true },
    training: { seq_len: 4096, micro_batch: 1 },
  },
  "deepseek-v3 EP 64 on HGX H800": {
    model: "deepseek-v3",
    cluster: { preset: "hgx-h800" },
    parallel: { dp: 64, pp: 16, ep: 64, zero: 1 },
    training: { schedule: "dualpipe", precision: "fp8-mixed" },
  },
};

for (const [name, base] of Object.entries(scenarios)) {
  test(`report parity with cluster.calibration: ${name}`, () => {
    const scenario = { ...base, cluster: { ...base.cluster, calibration: example } };
    const wasm = tslab.report(JSON.stringify(scenario));
    const native = cli(["report"], scenario);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(native.stdout, `${wasm}\n`);
    const r = JSON.parse(wasm);
    assert.equal(r.scenario.source, JSON.parse(tslab.validateProfile(exampleText)).source);
    const plain = JSON.parse(tslab.report(JSON.stringify(base)));
    assert.equal(plain.scenario.source, `preset: ${base.cluster.preset}`);
  });
}

test("report parity: the CLI's file-path form gives the same bytes as the browser's inline object", () => {
  const base = scenarios["gpt-1.7b DP 2 on a 2-GPU node (the ctest scenario)"];
  const wasm = tslab.report(JSON.stringify({ ...base, cluster: { ...base.cluster, calibration: example } }));
  // cli() writes the scenario to a temp folder; an absolute path resolves from anywhere.
  const native = cli(["report"], { ...base, cluster: { ...base.cluster, calibration: join(dataDir, "cpu-2rank-quick.json") } });
  assert.equal(native.status, 0, native.stderr);
  assert.equal(native.stdout, `${wasm}\n`);
});

test("validation() equals `tslab validate --format json`, by the fits and by a scenario's cluster", () => {
  const byFits = tslab.validation(exampleText, "");
  const native = cli(["validate", join(dataDir, "cpu-2rank-quick.json"), "--format", "json"]);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(native.stdout, `${byFits}\n`);
  const v = JSON.parse(byFits);
  assert.equal(v.predicted_by, "profile fits");
  const samples = example.collectives.reduce((n, c) => n + c.samples.length, 0);
  assert.ok(v.rows.filter((r) => r.kind === "collective").length === samples, "one row per collective sample");
  for (const r of v.rows) assert.ok(Math.abs(r.error_rel - (r.predicted_s - r.measured_s) / r.measured_s) < 1e-12);

  const scenario = { model: "gpt-1.7b", parallel: { dp: 2 }, cluster: { preset: "dgx-h100", nodes: 1, gpus_per_node: 2 } };
  const byCluster = JSON.parse(tslab.validation(exampleText, JSON.stringify(scenario)));
  const nativeCluster = cli(["validate", join(dataDir, "cpu-2rank-quick.json"), "--format", "json", "--scenario"], scenario);
  assert.equal(nativeCluster.status, 0, nativeCluster.stderr);
  assert.deepEqual(JSON.parse(nativeCluster.stdout), byCluster);
  assert.equal(byCluster.predicted_by, "preset: dgx-h100");
});

test("the client's fallback cluster is the core's default (presets().vocabulary.defaults.cluster), not a name of its own", () => {
  // withCalibration turns a scenario without a cluster into { preset: <that default>, calibration }.
  const fallback = JSON.parse(tslab.presets()).vocabulary.defaults.cluster;
  assert.equal(tslab.report(JSON.stringify({})), tslab.report(JSON.stringify({ cluster: fallback })));
  const src = readFileSync(join(repoRoot, "web/src/client.ts"), "utf8");
  for (const name of Object.keys(JSON.parse(tslab.presets()).clusters)) assert.ok(!src.includes(`"${name}"`), `client.ts names ${name}`);
  assert.match(src, /vocabulary\.defaults\.cluster/);
});
