// presets() parses and names every preset the issue asks for; each model and cluster preset yields a report.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();
const presets = JSON.parse(tslab.presets());

test("presets() is tslab/presets@1 with models, clusters and gpus", () => {
  assert.equal(presets.schema, "tslab/presets@1");
  for (const part of ["models", "clusters", "gpus"]) assert.equal(typeof presets[part], "object");
});

test("the named model and cluster presets exist", () => {
  // Model list: Megatron GPT 22B/175B/530B/1T (arXiv 2104.04473 Table 1), Llama 3, DeepSeek-V3, Kimi K2.
  for (const m of ["gpt-22b", "gpt-175b", "gpt-530b", "gpt-1t", "llama3-8b", "llama3-70b", "llama3-405b", "deepseek-v3", "kimi-k2"])
    assert.ok(m in presets.models, `model preset ${m}`);
  for (const c of ["dgx-a100-80gb", "dgx-h100", "hgx-h200", "hgx-h800", "dgx-b200"]) assert.ok(c in presets.clusters, `cluster preset ${c}`);
});

test("every cluster names a GPU preset with an HBM size, and the report's capacity is that size", () => {
  for (const [name, cluster] of Object.entries(presets.clusters)) {
    const gpu = presets.gpus[cluster.gpu];
    assert.ok(gpu, `${name}: gpu ${cluster.gpu}`);
    assert.ok(gpu.hbm_bytes > 0, `${name}: hbm_bytes`);
    const r = JSON.parse(tslab.report(JSON.stringify({ model: "llama3-8b", cluster: name })));
    assert.equal(r.memory.capacity_bytes, gpu.hbm_bytes);
  }
});

test("every model preset gives a report whose ledger adds up", () => {
  for (const name of Object.keys(presets.models)) {
    const r = JSON.parse(tslab.report(JSON.stringify({ model: name })));
    assert.equal(r.model.name, name);
    assert.ok(r.model.params_total >= r.model.params_active && r.model.params_active > 0, name);
    const inHbm = r.memory.items.filter((i) => i.id !== "offloaded").reduce((s, i) => s + i.bytes, 0);
    assert.equal(inHbm, r.memory.total_bytes, `${name}: items sum to total_bytes`);
    assert.equal(r.memory.fits, r.memory.total_bytes <= r.memory.capacity_bytes, `${name}: fits`);
  }
});
