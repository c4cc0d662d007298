// Shared helpers for the node tests: load the wasm build from web/src/wasm and run the native CLI.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const wasmDir = resolve(repoRoot, process.env.TSLAB_WASM_DIR ?? "web/src/wasm");
export const cliPath = resolve(repoRoot, process.env.TSLAB_CLI ?? "build/native/tslab");

/** The raw emscripten module, instantiated from bytes (Node 20 cannot fetch() a file path). */
export async function loadRawTslab() {
  const { default: createTslab } = await import(pathToFileURL(join(wasmDir, "tslab.mjs")).href);
  return createTslab({ wasmBinary: readFileSync(join(wasmDir, "tslab.wasm")) });
}

/** The facade's entry points that return an Outcome { ok, value, error } (web/src/tslab.d.ts). */
export const outcomeFunctions = [
  "report",
  "presets",
  "collective",
  "mesh",
  "validateProfile",
  "validation",
  "schedule",
  "scheduleTrace",
  "plan",
  "planStart",
  "planStep",
  "planResult",
  "planPartStart",
  "planPartState",
  "planMerge",
  "loadProfile",
  "loadedValidation",
  "rl",
  "accuracy",
  "accuracyPublished",
  "accuracyClass",
  "context",
  "messages",
];

/** An Outcome's value, or an Error with its message (what web/src/client.ts does). */
export function unwrap(outcome) {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.value;
}

/** The module with each Outcome function returning its text or throwing Error; `raw` is the module itself. */
export async function loadTslab() {
  const raw = await loadRawTslab();
  const api = {
    raw,
    planCancel: () => raw.planCancel(),
    dropProfile: (n) => raw.dropProfile(n),
    memoryStats: () => JSON.parse(raw.memoryStats()),
    inputLimits: () => JSON.parse(raw.inputLimits()),
  };
  for (const name of outcomeFunctions) api[name] = (...args) => unwrap(raw[name](...args));
  return api;
}

const scratch = mkdtempSync(join(tmpdir(), "tslab-node-"));
let serial = 0;

/** Runs `tslab ARGS...`, with a scenario object written to a temp file when given. */
export function cli(args, scenario) {
  const extra = [];
  if (scenario !== undefined) {
    const file = join(scratch, `scenario-${++serial}.json`);
    writeFileSync(file, typeof scenario === "string" ? scenario : JSON.stringify(scenario));
    extra.push(file);
  }
  const r = spawnSync(cliPath, [...args, ...extra], { encoding: "utf8" });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function cliVersionOk() {
  try {
    execFileSync(cliPath, ["--help"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
