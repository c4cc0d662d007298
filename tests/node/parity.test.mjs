// The wasm build and the native CLI return byte-identical JSON for the same scenario (ARCHITECTURE.md, parity rule).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();

const scenarios = {
  "defaults (empty scenario)": {},
  "llama3-70b 3D parallel on DGX H100": {
    model: "llama3-70b",
    cluster: "dgx-h100",
    parallel: { dp: 8, tp: 8, pp: 4, sp: true },
    training: { seq_len: 4096, micro_batch: 1 },
  },
  "llama3-70b ZeRO-3 over 64 ranks, full recompute": {
    model: "llama3-70b",
    cluster: "dgx-h100",
    parallel: { dp: 64, zero: 3 },
    training: { seq_len: 4096, recompute: "full" },
  },
  "deepseek-v3 DualPipe, EP 64, PP 16, FP8": {
    model: "deepseek-v3",
    cluster: "hgx-h800",
    parallel: { dp: 64, pp: 16, ep: 64, zero: 1 },
    // An explicit batch: the auto rule's 1024 sequences give 16 micro-batches per pipeline, below DualPipe's 2·pp = 32.
    training: { seq_len: 4096, global_batch: 2048, precision: "fp8-mixed", schedule: "dualpipe", recompute: "selective" },
  },
  "deepseek-v3 preset object with overrides": {
    model: { preset: "deepseek-v3", layers: 32 },
    cluster: { preset: "hgx-h200" },
    parallel: { dp: 32, tp: 2, etp: 1, pp: 4, ep: 32, sp: true, zero: 2 },
    training: { seq_len: 8192, micro_batch: 2, global_batch: 512, optimizer: "muon" },
  },
  "kimi-k2 interleaved 1F1B with optimizer offload": {
    model: "kimi-k2",
    cluster: "dgx-b200",
    parallel: { dp: 32, pp: 8, vpp: 2, ep: 32 },
    training: { schedule: "interleaved", offload: { optimizer: 0.5, activations: 0.25 } },
  },
  // All-gather CP: ring and USP need a fused (flash) attention kernel, which this fp16 case turns off.
  "gpt-175b TP 8 PP 8, fp16, GPipe, all-gather CP 2": {
    model: "gpt-175b",
    cluster: "dgx-a100-80gb",
    parallel: { dp: 4, tp: 8, pp: 8, cp: 2, cp_method: "allgather", sp: true },
    training: { precision: "fp16-mixed", schedule: "gpipe", flash_attention: false, optimizer: "adam" },
  },
  "llama3-8b fp32 adafactor, custom precision object": {
    model: "llama3-8b",
    parallel: { dp: 8, zero: 2 },
    training: { precision: { recipe: "bf16-mixed", grads: "fp32", optimizer: "bf16" }, optimizer: "adafactor" },
  },
};

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`report parity: ${name}`, () => {
    const native = cli(["report"], scenario);
    assert.equal(native.status, 0, native.stderr);
    const wasm = tslab.report(JSON.stringify(scenario));
    // The CLI ends its output with one newline; the bytes before it must match exactly.
    assert.equal(native.stdout, `${wasm}\n`);
    assert.equal(JSON.parse(wasm).schema, "tslab/report@1");
  });
}

const rlSpecs = {
  "L9 defaults on llama3-70b": { scenario: { model: "llama3-70b", parallel: { dp: 8, tp: 8, pp: 4 } } },
  "L9 MLA at a million tokens, async checkpoints": {
    schema: "tslab/rl@1",
    gpus: [1024, 16384],
    scenario: {
      model: "deepseek-v3",
      parallel: { dp: 64, pp: 16, ep: 64 },
      training: { global_batch: 2048, reliability: { async_checkpoint: true, checkpoint_storage_Bps: 1e11 } },
    },
    rl: { context_tokens: 1048576, response_median_tokens: 65536, tail_sigma: 1.2, inference_tp: 16, kv_dtype: "fp8", reward: "rule" },
  },
};

for (const [name, spec] of Object.entries(rlSpecs)) {
  test(`rl parity: ${name}`, () => {
    const native = cli(["rl"], spec);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(native.stdout, `${tslab.rl(JSON.stringify(spec))}\n`);
  });
}

test("rl: an error names the field in both", () => {
  const spec = { scenario: {}, rl: { inference_tp: 3 } };
  const native = cli(["rl"], spec);
  assert.equal(native.status, 2);
  assert.match(native.stderr, /^error: rl\.inference_tp: /);
  assert.throws(() => tslab.rl(JSON.stringify(spec)), /^Error: rl\.inference_tp: /);
});

const contextScenarios = {
  "L7 128K on Llama 3 8B, TP 8, CP 8 ring": { model: "llama3-8b", parallel: { tp: 8, cp: 8, sp: true }, training: { seq_len: 131072 } },
  "L7 USP on Llama 3 70B, CP 32 at 1M tokens": {
    model: "llama3-70b",
    parallel: { tp: 8, cp: 32, cp_method: "usp", pp: 4 },
    training: { seq_len: 1048576 },
  },
  "L7 without CP": { model: "llama3-8b", parallel: { tp: 8, sp: true } },
};

for (const [name, scenario] of Object.entries(contextScenarios)) {
  test(`context parity: ${name}`, () => {
    const native = cli(["context"], scenario);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(native.stdout, `${tslab.context(JSON.stringify(scenario))}\n`);
  });
}

test("context: a bad scenario is named in both", () => {
  const scenario = { parallel: { cp: 0 } };
  const native = cli(["context"], scenario);
  assert.equal(native.status, 2);
  assert.match(native.stderr, /^error: parallel\.cp: /);
  assert.throws(() => tslab.context(JSON.stringify(scenario)), /^Error: parallel\.cp: /);
});

test("presets parity", () => {
  const native = cli(["presets"]);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(native.stdout, `${tslab.presets()}\n`);
});
