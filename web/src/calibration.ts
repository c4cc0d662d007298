// Calibration bar of the lab shell: pick or drop a profile, validate it, badge + remove, predicted-vs-measured.
import { say } from "./core_messages";
import "./calibration.css";
import { errorText, ScenarioError, type TslabClient } from "./client";
import { onLangChange, t } from "./i18n";
import type { LoadedCalibration, ProbeCheck, ReplacedFigure, Validation } from "./types/calibration";
import { el, scrollFrame } from "./dom";
import type { ScenarioStore } from "./state";

type Message = { kind: "ok" | "error"; text: () => string } | null;

const us = (s: number) => (s * 1e6).toPrecision(3);
/** Bytes in binary units (the sweeps go by powers of two), FLOPs in engineering notation. */
function size(kind: ProbeCheck["kind"], x: number): string {
  if (kind === "gemm") return `${x.toExponential(2)} FLOP`;
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (x >= 1024 && i < units.length - 1) ((x /= 1024), i++);
  return `${Number.isInteger(x) ? x : x.toFixed(1)} ${units[i]}`;
}
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const signedPct = (x: number) => `${x >= 0 ? "+" : ""}${pct(x)}`;
const rate = (bps: number, unit = "B/s") => (bps >= 1e12 ? `${(bps / 1e12).toFixed(2)} T${unit}` : `${(bps / 1e9).toFixed(2)} G${unit}`);

function figureText(f: ReplacedFigure): string {
  if (f.id === "intra_node" || f.id === "inter_node") return `${f.path} = ${rate(f.bandwidth_Bps)}, ${us(f.latency_s)} µs ← ${f.from}`;
  if (f.id === "gemm") return `${f.path} (${f.dtype}) max ${rate(f.flops_per_s_max, "FLOP/s")} ← ${f.from}${t("cal.notInReport")}`;
  return `${f.path} = ${rate(f.bandwidth_Bps)} ← ${f.from}`;
}

/** The profile's details: what it replaces, then predicted vs measured per probe (client.validation()). */
function detailsBody(c: LoadedCalibration, v: Validation): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (!c.summary.complete) out.push(el("p", "tsl-cal-warn", t("cal.incomplete")));
  out.push(el("h4", "tsl-cal-h", t("cal.replaces")));
  const list = el("ul", "tsl-cal-replaces");
  for (const f of c.summary.replaces) list.append(el("li", "", figureText(f)));
  if (!c.summary.replaces.length) list.append(el("li", "", t("cal.replacesNone")));
  out.push(list, el("p", "tsl-cal-by", t("cal.predictedBy", { by: v.predicted_by })));
  const wrap = scrollFrame(el("div", "tsl-cal-scroll"), t("cal.bar"));
  const table = el("table", "tsl-cal-table");
  table.dataset.testid = "calibration-table";
  const head = el("tr");
  for (const k of ["cal.col.probe", "cal.col.size", "cal.col.measured", "cal.col.predicted", "cal.col.error"] as const)
    head.append(Object.assign(el("th", "", t(k)), { scope: "col" }));
  table.append(el("thead"), el("tbody"));
  table.tHead!.append(head);
  for (const r of v.rows) {
    const tr = el("tr");
    tr.append(
      el("th", "", r.probe),
      el("td", "", size(r.kind, r.size)),
      el("td", "", us(r.measured_s)),
      el("td", "", us(r.predicted_s)),
      el("td", Math.abs(r.error_rel) > 0.25 ? "tsl-cal-far" : "", signedPct(r.error_rel)),
    );
    tr.firstElementChild!.setAttribute("scope", "row");
    table.tBodies[0].append(tr);
  }
  wrap.append(table);
  out.push(wrap);
  return out;
}

/** Reads a dropped or picked file as text; anything that does not look like JSON is refused up front. */
async function readProfile(file: File): Promise<string> {
  const looksJson = /\.json$/i.test(file.name) || file.type === "application/json" || file.type === "";
  if (!looksJson) throw new ScenarioError("", t("cal.notJson", { type: file.type || file.name }));
  try {
    return await file.text();
  } catch (e) {
    throw new ScenarioError("", t("cal.readFailed") + (e instanceof Error ? e.message : String(e)));
  }
}

interface Bar {
  input: HTMLInputElement;
  /** The hidden descriptions of the pick and remove buttons (aria-describedby). */
  pickDesc: HTMLElement;
  removeDesc: HTMLElement;
  pick: HTMLButtonElement;
  hint: HTMLElement;
  badge: HTMLElement;
  warn: HTMLElement;
  remove: HTMLButtonElement;
  details: HTMLDetailsElement;
  note: HTMLElement;
}

/** The bar's elements: file button (the input itself stays hidden), hint, badge, remove, message, details. */
function buildBar(uid: string, host: HTMLElement): Bar {
  const input = Object.assign(el("input"), { type: "file", accept: ".json,application/json", hidden: true, id: `${uid}-cal-file` });
  input.tabIndex = -1;
  const pick = Object.assign(el("button", "tsl-cal-pick"), { type: "button" as const });
  pick.dataset.testid = "calibration-pick";
  const hint = el("span", "tsl-cal-hint");
  const badge = el("span", "tsl-cal-badge");
  badge.dataset.testid = "calibration-badge";
  badge.setAttribute("role", "status");
  const remove = Object.assign(el("button", "tsl-cal-remove"), { type: "button" as const });
  remove.dataset.testid = "calibration-remove";
  const details = el("details", "tsl-cal-details");
  details.dataset.testid = "calibration-details";
  const note = el("p", "tsl-cal-msg");
  note.dataset.testid = "calibration-message";
  note.setAttribute("aria-live", "polite");
  const row = el("div", "tsl-cal-row");
  // The core's mismatch warnings (profile vs the shared scenario's cluster), next to the badge.
  const warn = el("ul", "tsl-cal-warn tsl-cal-warnings");
  warn.dataset.testid = "calibration-warnings";
  warn.setAttribute("role", "status");
  // Names are the visible text (WCAG 2.5.3); the longer sentences describe the buttons.
  const describe = (button: HTMLElement, key: string) => {
    const d = el("span");
    d.id = `${uid}-cal-${key}`;
    d.hidden = true;
    button.setAttribute("aria-describedby", d.id);
    return d;
  };
  const pickDesc = describe(pick, "pick-desc"),
    removeDesc = describe(remove, "remove-desc");
  row.append(pick, input, hint, badge, remove, pickDesc, removeDesc);
  host.append(row, warn, note, details);
  host.hidden = false;
  return { input, pickDesc, removeDesc, pick, hint, badge, warn, remove, details, note };
}

/** Builds the bar in host, wires drag-and-drop on root, and redraws the panels under stage on every change. */
export function mountCalibration(root: HTMLElement, host: HTMLElement, stage: HTMLElement, client: TslabClient, store: ScenarioStore): void {
  const { input, pickDesc, removeDesc, pick, hint, badge, warn, remove, details, note } = buildBar(root.id || "tsl", host);
  let message: Message = null;
  const render = () => {
    const c = client.calibration();
    pick.textContent = t("cal.pick");
    pickDesc.textContent = t("cal.pickLabel");
    hint.textContent = c ? "" : `${t("cal.drop")} · ${t("cal.none")}`;
    hint.hidden = !!c;
    badge.hidden = remove.hidden = details.hidden = !c;
    remove.textContent = t("cal.remove");
    removeDesc.textContent = t("cal.removeLabel");
    note.hidden = !message;
    note.className = `tsl-cal-msg${message?.kind === "error" ? " tsl-cal-error" : ""}`;
    note.setAttribute("role", message?.kind === "error" ? "alert" : "status");
    note.textContent = message ? message.text() : "";
    if (!c) return (details.replaceChildren(), warn.replaceChildren());
    badge.textContent = t("cal.badge", { source: c.summary.source });
    badge.setAttribute("aria-label", t("cal.badgeLabel", { source: c.summary.source }));
    const v = client.validation();
    const warnings = warningsFor(client, store);
    warn.replaceChildren(...warnings.map((w) => el("li", "", t("cal.warning", { text: w }))));
    badge.classList.toggle("tsl-cal-badge-warn", warnings.length > 0);
    const open = details.open;
    const summary = el("summary", "", t("cal.details", { n: v.probes, median: pct(v.median_abs_error) }));
    details.replaceChildren(summary, ...detailsBody(c, v));
    details.open = open;
  };

  // A bad file never replaces a good profile: the message names the file, the JSON path and the reason.
  const load = async (file: File) => {
    const had = client.calibration();
    try {
      const c = client.loadCalibration(await readProfile(file), file.name);
      message = { kind: "ok", text: () => t("cal.loaded", { file: c.fileName }) };
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      message = {
        kind: "error",
        text: () => t("cal.bad", { file: file.name }) + errorText(e) + " " + t("cal.kept", { kept: had ? t("cal.keptPrevious") : "" }),
      };
    }
    render();
  };

  pick.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    input.value = ""; // picking the same file again must fire change again
    if (file) void load(file);
  });
  remove.addEventListener("click", () => {
    client.clearCalibration();
    message = { kind: "ok", text: () => t("cal.removed") };
    render();
    pick.focus();
  });
  wireDrop(root, (file) => void load(file));
  // Panels recompute on their form's change event; firing one redraws them with the new cluster.
  client.onCalibrationChange(() => {
    for (const form of stage.querySelectorAll("form")) form.dispatchEvent(new Event("change", { bubbles: true }));
  });
  onLangChange(render);
  store.subscribe(() => render()); // a new cluster or scale in the shared scenario changes the warnings
  render();
}

/** The core's warnings for the profile against the shared scenario's cluster (the profile's own if that scenario is invalid), in the reader's language. */
function warningsFor(client: TslabClient, store: ScenarioStore): string[] {
  let v: Validation;
  try {
    v = client.validation(store.scenario());
  } catch {
    v = client.validation();
  }
  return v.warnings.map((w, i) => say(v.warnings_msg?.[i], w));
}

function wireDrop(root: HTMLElement, onFile: (file: File) => void): void {
  let depth = 0; // dragenter/leave fire for every child crossed
  const hasFiles = (e: DragEvent) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files");
  const set = (on: boolean) => {
    root.classList.toggle("tsl-dropping", on);
    if (on) root.dataset.dropHint = t("cal.dropHere");
  };
  root.addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    set(true);
  });
  root.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = "copy";
  });
  root.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) set(false);
  });
  root.addEventListener("drop", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    set(false);
    const file = e.dataTransfer!.files[0];
    if (file) onFile(file);
  });
}
