// wasm collective()/mesh() return the same bytes as `tslab collective` / `tslab mesh`; bad specs are Errors "path: reason".
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, loadTslab } from "./tslab_module.mjs";

const tslab = await loadTslab();

const collectiveSpecs = {
  "allreduce 1 GiB on 8 ranks inside a DGX H100": { op: "allreduce", bytes: 2 ** 30, ranks: 8 },
  "allreduce 256 MiB on 16 ranks across 2 nodes (hierarchical)": { op: "allreduce", bytes: 2 ** 28, ranks: 16 },
  "alltoall 64 MiB on 64 ranks, inter_node tier, overlap 0.5": { op: "alltoall", bytes: 2 ** 26, ranks: 64, link: "inter_node", overlap: 0.5 },
  "reducescatter on a custom link": { op: "reducescatter", bytes: 1e8, ranks: 4, link: { bandwidth_Bps: 25e9, latency_s: 1e-5 } },
  "allgather forced ring on hgx-h800": { op: "allgather", bytes: 1e6, ranks: 8, algorithm: "ring", cluster: "hgx-h800" },
  "sendrecv 8 KiB": { op: "sendrecv", bytes: 8192, ranks: 2, link: "intra_node" },
};

const meshSpecs = {
  "Megatron default order, 4 nodes": { dp: 2, tp: 8, pp: 2 },
  "tp outermost: the conflicting mapping": { dp: 2, tp: 8, pp: 2, order: "cp-ep-dp-pp-tp" },
  "MoE with ep and cp, 4 GPUs per node": { dp: 4, tp: 2, cp: 2, ep: 4, pp: 2, gpus_per_node: 4, sp: true },
  "explicit nodes and a listing limit": { dp: 2, tp: 8, gpus_per_node: 8, nodes: 2, list_limit: 4 },
  "Ulysses cp with heads not dividing": { tp: 2, cp: 4, dp: 1, cp_method: "ulysses", heads: 12 },
};

for (const [name, spec] of Object.entries(collectiveSpecs)) {
  test(`collective parity: ${name}`, () => {
    const native = cli(["collective"], spec);
    assert.equal(native.status, 0, native.stderr);
    const wasm = tslab.collective(JSON.stringify(spec));
    assert.equal(native.stdout, `${wasm}\n`);
    const j = JSON.parse(wasm);
    assert.equal(j.schema, "tslab/collective@1");
    // t = α·rounds + β·bytes (Hockney): the two parts add up to the time of the chosen algorithm.
    assert.ok(Math.abs(j.alpha_s + j.beta_s - j.time_s) <= 1e-12 * j.time_s + 1e-18);
    // Overlap hides time, never bytes: exposed = time × (1 − overlap).
    assert.ok(Math.abs(j.exposed_s - j.time_s * (1 - (spec.overlap ?? 0))) <= 1e-12 * j.time_s);
  });
}

for (const [name, spec] of Object.entries(meshSpecs)) {
  test(`mesh parity: ${name}`, () => {
    const native = cli(["mesh"], spec);
    assert.equal(native.status, 0, native.stderr);
    const wasm = tslab.mesh(JSON.stringify(spec));
    assert.equal(native.stdout, `${wasm}\n`);
    assert.equal(JSON.parse(wasm).schema, "tslab/mesh@1");
  });
}

test("the conflicting mapping warns about TP across nodes; the default order does not", () => {
  const good = JSON.parse(tslab.mesh(JSON.stringify(meshSpecs["Megatron default order, 4 nodes"])));
  const bad = JSON.parse(tslab.mesh(JSON.stringify(meshSpecs["tp outermost: the conflicting mapping"])));
  assert.deepEqual(
    good.warnings.filter((w) => w.startsWith("tp group")),
    [],
  );
  // tp outermost: stride dp·pp = 4, so a TP group is {0, 4, ..., 28}: 8 ranks on 4 nodes of 8 GPUs.
  assert.deepEqual(bad.groups.find((g) => g.axis === "tp").ranks, [0, 4, 8, 12, 16, 20, 24, 28]);
  assert.ok(
    bad.warnings.some((w) => w.startsWith("tp group of 8 spans 4 nodes")),
    bad.warnings.join(" | "),
  );
});

/** [case, which function, spec, expected JSON path, a fragment of the reason] */
const errorCases = [
  ["zero bytes", "collective", { op: "allreduce", bytes: 0, ranks: 8 }, "bytes", "must be positive"],
  ["negative bytes", "collective", { op: "allreduce", bytes: -5, ranks: 8 }, "bytes", "must be positive"],
  ["unknown op", "collective", { op: "allreduse", bytes: 1024, ranks: 8 }, "op", "did you mean allreduce"],
  ["ranks not filling nodes", "collective", { op: "allreduce", bytes: 1024, ranks: 12 }, "ranks", "not a multiple of ranks_per_node = 8"],
  ["one rank", "collective", { op: "allgather", bytes: 1024, ranks: 1 }, "ranks", "at least 2"],
  [
    "bandwidth 0",
    "collective",
    { op: "allreduce", bytes: 1024, ranks: 8, link: { bandwidth_Bps: 0, latency_s: 1e-6 } },
    "link.bandwidth_Bps",
    "must be positive",
  ],
  ["unknown axis in order", "mesh", { tp: 2, order: "tp-cp-ep-dq-pp" }, "order", 'unknown axis "dq"'],
  ["ep not dividing dp·cp", "mesh", { dp: 4, ep: 3 }, "ep", "expert-DP rule"],
  ["world larger than the nodes", "mesh", { dp: 4, tp: 8, nodes: 2 }, "nodes", "≠ world size 16"],
  [
    "link bandwidth 5e-324",
    "collective",
    { op: "allreduce", bytes: 1024, ranks: 8, link: { bandwidth_Bps: 5e-324, latency_s: 0 } },
    "link.bandwidth_Bps",
    "below 1e3 B/s",
  ],
  ["list_limit 2^20", "mesh", { dp: 1 << 20, list_limit: 1 << 20 }, "list_limit", "out of range [1, 65536]"],
  ["number overflow", "collective", '{"op":"allreduce","bytes":1e400,"ranks":8}', "bytes", "1e400 is out of range"],
  ["gpus_per_node 0", "mesh", { dp: 2, gpus_per_node: 0 }, "gpus_per_node", "out of range"],
];

for (const [name, fn, spec, path, fragment] of errorCases) {
  test(`${fn} error: ${name}`, () => {
    const text = typeof spec === "string" ? spec : JSON.stringify(spec);
    let caught;
    try {
      tslab[fn](text);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof Error, `expected an Error, got ${typeof caught}: ${caught}`);
    if (path) assert.ok(caught.message.startsWith(`${path}: `), `message "${caught.message}" should start with "${path}: "`);
    if (fragment) assert.ok(caught.message.includes(fragment), `message "${caught.message}" should mention "${fragment}"`);
    const native = cli([fn], text);
    assert.equal(native.status, 2);
    assert.ok(native.stderr.includes(caught.message), `CLI stderr "${native.stderr.trim()}" should contain "${caught.message}"`);
  });
}
