// The core has no include cycle between its modules: a module is a header and its source (X.hpp, X.cpp),
// a private header in core/src belongs to the module its name extends (calibration_detail.hpp to
// calibration), and an edge is an #include of another module's header from any of its files.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repoRoot } from "./tslab_module.mjs";

const include = join(repoRoot, "core/include/tslab");
const src = join(repoRoot, "core/src");
const stem = (f) => f.replace(/\.(hpp|cpp)$/, "");

/** Module name of every core file, and the files of each. */
function modules() {
  const publicNames = new Set(
    readdirSync(include)
      .filter((f) => f.endsWith(".hpp"))
      .map(stem),
  );
  const owner = (name, isPrivateHeader) => {
    if (!isPrivateHeader || publicNames.has(name)) return name;
    const parts = name.split("_");
    for (let n = parts.length - 1; n > 0; n--) if (publicNames.has(parts.slice(0, n).join("_"))) return parts.slice(0, n).join("_");
    return name;
  };
  const files = [
    ...readdirSync(include)
      .filter((f) => f.endsWith(".hpp"))
      .map((f) => ({ path: join(include, f), module: stem(f) })),
    ...readdirSync(src)
      .filter((f) => /\.(hpp|cpp)$/.test(f))
      .map((f) => ({ path: join(src, f), module: owner(stem(f), f.endsWith(".hpp")) })),
  ];
  return { files, owner };
}

/** module → the modules it includes. */
export function includeGraph() {
  const { files, owner } = modules();
  const graph = new Map();
  for (const { path, module } of files) {
    const to = graph.get(module) ?? new Set();
    for (const m of readFileSync(path, "utf8").matchAll(/^\s*#\s*include\s+"(tslab\/)?([\w]+)\.hpp"/gm)) {
      const target = owner(m[2], !m[1]);
      if (target !== module) to.add(target);
    }
    graph.set(module, to);
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan): each is an include cycle. */
export function cycles(graph) {
  let next = 0;
  const index = new Map(),
    low = new Map(),
    stack = [],
    on = new Set(),
    out = [];
  const visit = (v) => {
    (index.set(v, next), low.set(v, next++), stack.push(v), on.add(v));
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) (visit(w), low.set(v, Math.min(low.get(v), low.get(w))));
      else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const comp = [];
    for (let w; w !== v;) ((w = stack.pop()), on.delete(w), comp.push(w));
    if (comp.length > 1) out.push(comp.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test("the cycle finder finds a three-module loop and nothing in a chain", () => {
  const loop = new Map([
    ["a", new Set(["b"])],
    ["b", new Set(["c"])],
    ["c", new Set(["a"])],
    ["d", new Set(["a"])],
  ]);
  assert.deepEqual(cycles(loop), [["a", "b", "c"]]);
  assert.deepEqual(
    cycles(
      new Map([
        ["a", new Set(["b"])],
        ["b", new Set(["c"])],
        ["c", new Set()],
      ]),
    ),
    [],
  );
});

test("no include cycle between the core's modules", () => {
  const graph = includeGraph();
  assert.ok(graph.size > 80, `read ${graph.size} modules`);
  assert.deepEqual(cycles(graph), [], "modules that include each other (break the loop by moving what both need below them)");
});
