// The step panel's two one-click trials (full recompute on/off, TP 16 across nodes) and the before → after lines they leave.
import { sayClauses } from "../core_messages";
import { el } from "../dom";
import { duration } from "../format";
import { t, type MessageKey } from "../i18n";
import type { StepInReport } from "../types/step";

export type StepTrial = "recompute" | "tp";

export interface StepTrials {
  element: HTMLElement;
  relabel(): void;
  show(before: StepInReport, after: StepInReport): void;
  clear(): void;
}

function row(key: MessageKey, text: string, id: string, value?: number): HTMLElement {
  const p = el("p");
  const s = el("span", "", text);
  s.dataset.testid = id;
  if (value !== undefined) s.dataset.value = String(value);
  p.append(el("strong", "", `${t(key)}: `), s);
  return p;
}

export function createStepTrials(run: (which: StepTrial) => void): StepTrials {
  const wrap = el("div", "tsl-trial tsl-step-trials");
  const buttons = (["recompute", "tp"] as const).map((which) => {
    const b = el("button", "tsl-trial-button");
    b.type = "button";
    b.dataset.testid = `trial-${which}`;
    b.addEventListener("click", () => run(which));
    return b;
  });
  const result = el("div", "tsl-trial-result");
  result.dataset.testid = "trial-result";
  result.setAttribute("aria-live", "polite");
  result.hidden = true;
  wrap.append(...buttons, result);
  let shown: [StepInReport, StepInReport] | null = null;
  const draw = () => {
    result.hidden = shown === null;
    if (!shown) return result.replaceChildren();
    const [before, after] = shown;
    result.replaceChildren(
      row("step.trial.before", sayClauses(before.step.bottleneck_msg, before.step.bottleneck), "trial-before"),
      row("step.trial.after", sayClauses(after.step.bottleneck_msg, after.step.bottleneck), "trial-after"),
      row("step.trial.time", `${duration(before.step.time_s)} → ${duration(after.step.time_s)}`, "trial-time", after.step.time_s),
      row("step.trial.batch", t("step.trial.batchHeld", { batch: after.step.global_batch }), "trial-batch", after.step.global_batch),
    );
  };
  const relabel = () => {
    buttons[0].textContent = t("step.trial.recompute");
    buttons[1].textContent = t("step.trial.tp");
    draw();
  };
  relabel();
  return {
    element: wrap,
    relabel,
    show(before, after) {
      shown = [before, after];
      draw();
    },
    clear() {
      shown = null;
      draw();
    },
  };
}
