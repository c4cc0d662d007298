// Labelled form controls with an inline error slot, shared by every lab panel.
import { t, tOr, type MessageKey } from "./i18n";
import { el } from "./dom";
import { sayError, type CoreMessage } from "./core_messages";

export interface Choice {
  value: string;
  /** A dictionary key; for a core name ("opt.full") it may be missing, and `label` (the core's label) shows instead. */
  labelKey?: MessageKey | string;
  label?: string;
}

/** The text of a choice in the current language: its translation, else the core's label, else its value. */
export function choiceText(c: Choice): string {
  return c.labelKey ? tOr(c.labelKey, c.label ?? c.value) : (c.label ?? c.value);
}

export type ControlSpec =
  | { kind: "select"; key: string; labelKey: MessageKey; choices: Choice[] }
  | { kind: "number"; key: string; labelKey: MessageKey; min: number; max: number; placeholder?: string }
  | { kind: "range"; key: string; labelKey: MessageKey; min: number; max: number; step: number; show: (v: number) => string }
  | { kind: "check"; key: string; labelKey: MessageKey }
  /** A multi-line text box (pasted lists); its text goes to the field as is, the core says what is wrong with it. */
  | { kind: "text"; key: string; labelKey: MessageKey; rows: number; placeholder?: string };

export interface Control {
  spec: ControlSpec;
  field: HTMLElement;
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  /** The raw value: string for select/number/text, number for range, boolean for check. */
  read(): string | number | boolean;
  write(v: string | number | boolean): void;
  setError(message: string | null): void;
  relabel(): void;
}

let serial = 0;

function makeInput(spec: ControlSpec): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  if (spec.kind === "text") {
    const a = document.createElement("textarea");
    a.rows = spec.rows;
    a.spellcheck = false;
    if (spec.placeholder) a.placeholder = spec.placeholder;
    return a;
  }
  if (spec.kind === "select") {
    const s = document.createElement("select");
    for (const c of spec.choices) s.add(new Option(choiceText(c), c.value));
    return s;
  }
  const i = document.createElement("input");
  if (spec.kind === "check") i.type = "checkbox";
  if (spec.kind === "number") {
    i.type = "number";
    i.inputMode = "numeric";
    i.min = String(spec.min);
    i.max = String(spec.max);
    i.step = "1";
    if (spec.placeholder) i.placeholder = spec.placeholder;
  }
  if (spec.kind === "range") {
    i.type = "range";
    i.min = String(spec.min);
    i.max = String(spec.max);
    i.step = String(spec.step);
  }
  return i;
}

/** Builds `<div class="tsl-field"><label/><input/><output?/><p role=alert/></div>`. */
export function createControl(spec: ControlSpec): Control {
  const id = `tsl-${spec.key}-${++serial}`;
  const field = el("div", `tsl-field tsl-field-${spec.kind}`);
  field.dataset.control = spec.key;
  const label = el("label", "tsl-label");
  label.htmlFor = id;
  const input = makeInput(spec);
  input.id = id;
  input.name = spec.key;
  const out = spec.kind === "range" ? el("output", "tsl-out") : null;
  if (out) out.htmlFor.add(id);
  const error = el("p", "tsl-error");
  error.id = `${id}-err`;
  error.setAttribute("role", "alert");
  error.hidden = true;
  input.setAttribute("aria-describedby", error.id);
  if (spec.kind === "check") field.append(input, label, error);
  else field.append(label, input, ...(out ? [out] : []), error);

  const showOut = () => {
    if (out && spec.kind === "range") out.value = spec.show(Number(input.value));
  };
  const control: Control = {
    spec,
    field,
    input,
    read() {
      if (spec.kind === "check") return (input as HTMLInputElement).checked;
      if (spec.kind === "range") return Number(input.value);
      return input.value;
    },
    write(v) {
      if (spec.kind === "check") (input as HTMLInputElement).checked = Boolean(v);
      else input.value = String(v);
      showOut();
    },
    setError(message) {
      error.textContent = message ?? "";
      error.hidden = message === null;
      field.classList.toggle("tsl-invalid", message !== null);
      input.setAttribute("aria-invalid", message === null ? "false" : "true");
    },
    relabel() {
      label.textContent = t(spec.labelKey);
      if (spec.kind === "select" && input instanceof HTMLSelectElement) spec.choices.forEach((c, i) => (input.options[i].text = choiceText(c)));
      showOut();
    },
  };
  input.addEventListener("input", showOut);
  control.relabel();
  return control;
}

/** A fieldset with a translated legend holding some controls. */
export function createGroup(legendKey: MessageKey, controls: Control[]): { element: HTMLFieldSetElement; relabel(): void } {
  const fs = el("fieldset", "tsl-group");
  const legend = el("legend", "", t(legendKey));
  fs.append(legend, ...controls.map((c) => c.field));
  return { element: fs, relabel: () => (legend.textContent = t(legendKey)) };
}

/** The most specific control for an error path: "parallel.tp" → tp; "parallel" → the axis fallback. */
export function controlForPath(path: string, table: ReadonlyArray<readonly [string, string]>): string | null {
  let best: string | null = null;
  let bestLen = -1;
  for (const [prefix, key] of table) {
    const hit = path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
    if (hit && prefix.length > bestLen) {
      best = key;
      bestLen = prefix.length;
    }
  }
  return best;
}

/** Clears every control's error, then shows err next to the control its path names, or in general() when none does. */
export function showErrorAt(
  err: { path: string; message: string; msg?: CoreMessage | null } | null,
  controls: ReadonlyMap<string, Control>,
  table: ReadonlyArray<readonly [string, string]>,
  general: (message: string | null) => void,
): void {
  for (const c of controls.values()) c.setError(null);
  general(null);
  const target = err && controlForPath(err.path, table);
  const text = err && sayError(err.path, err.msg, err.message);
  if (err && target && controls.has(target)) controls.get(target)!.setError(text);
  else if (err) general(text);
}

/** Numbers typed by the user go in as numbers; anything else goes in verbatim so the core names the problem. */
export function numberOrText(v: string | number | boolean): unknown {
  const s = String(v).trim();
  return /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s) ? Number(s) : s;
}

/** A panel's control form: one labelled fieldset per group, submit suppressed. */
export interface ControlForm {
  element: HTMLFormElement;
  controls: Map<string, Control>;
  relabel(): void;
}

/** Builds the form every scenario panel uses: groups[i] become the controls under legendKeys[i]. */
export function createForm(labelKey: MessageKey, legendKeys: readonly MessageKey[], groups: readonly ControlSpec[][]): ControlForm {
  const controls = new Map<string, Control>();
  const form = document.createElement("form");
  form.className = "tsl-form";
  form.noValidate = true;
  form.dataset.i18nLabel = labelKey;
  form.setAttribute("aria-label", t(labelKey));
  form.addEventListener("submit", (e) => e.preventDefault());
  const legends = legendKeys.map((key, i) => {
    const list = groups[i].map(createControl);
    for (const c of list) controls.set(c.spec.key, c);
    const g = createGroup(key, list);
    form.append(g.element);
    return g;
  });
  const relabel = () => {
    legends.forEach((g) => g.relabel());
    for (const c of controls.values()) c.relabel();
    form.setAttribute("aria-label", t(labelKey));
  };
  return { element: form, controls, relabel };
}
