// Runs the pipeline panel's schedules: on the page when the core says they fit a frame, else in the schedule Worker (issue: no frozen page).
import { errorOfReply, ScenarioError, type TslabClient } from "../client";
import { t } from "../i18n";
import { simulateForDrawing, type ScheduleReply, type ScheduleRequest } from "../schedule_sim";
import type { ScheduleResult, ScheduleSpec } from "../types/pipeline";

export interface RunError {
  index: number;
  err: ScenarioError;
}
export interface ScheduleRunner {
  /**
   * Checks every SPEC's work first (bad input throws RunError[] at once); small runs return their results,
   * large ones return "background" and call done later. A newer run supersedes an older one.
   */
  run(specs: ScheduleSpec[], done: (results: ScheduleResult[] | RunError[]) => void): ScheduleResult[] | RunError[] | "background";
  /** The background run in progress, if any, is dropped (its reply is ignored). */
  cancel(): void;
}

export function createScheduleRunner(client: TslabClient): ScheduleRunner {
  let worker: Worker | null = null;
  let serial = 0;
  let busy = false; // a background run is in the Worker: a newer one replaces the Worker rather than queue behind it
  const drop = () => {
    if (busy) (worker?.terminate(), (worker = null), (busy = false));
  };
  const attempt = <T>(specs: ScheduleSpec[], fn: (s: ScheduleSpec) => T): T[] | RunError[] => {
    const out: T[] = [];
    const errs: RunError[] = [];
    specs.forEach((spec, index) => {
      try {
        out.push(fn(spec));
      } catch (e) {
        if (!(e instanceof ScenarioError)) throw e;
        errs.push({ index, err: e });
      }
    });
    return errs.length ? errs : out;
  };
  const isErrors = (r: unknown[]): r is RunError[] => r.length > 0 && (r[0] as RunError).err instanceof ScenarioError;
  return {
    run(specs, done) {
      serial += 1;
      drop();
      const works = attempt(specs, (s) => client.scheduleWork({ ...s, timeline: false }));
      if (isErrors(works)) return works;
      if (works.every((w) => w.foreground)) return attempt(specs, (s) => simulateForDrawing(client, s));
      worker ??= new Worker(new URL("../schedule.worker.ts", import.meta.url), { type: "module" });
      const id = serial;
      worker.onmessage = (e: MessageEvent<ScheduleReply>) => {
        const r = e.data;
        if (r.id !== serial) return;
        busy = false;
        done(r.type === "results" ? r.results : [{ index: r.index, err: errorOfReply(r) }]);
      };
      worker.onerror = (e) =>
        id === serial && ((busy = false), done([{ index: 0, err: new ScenarioError("", e.message || t("lab.scheduleWorkerFailed")) }]));
      const req: ScheduleRequest = { id, specs };
      worker.postMessage(req);
      busy = true;
      return "background";
    },
    cancel() {
      serial += 1;
      drop();
    },
  };
}
