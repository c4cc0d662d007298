// The planner's Web Worker: its own wasm instance runs the sliced search (planStart/planStep) so the page stays responsive.
import createTslab, { type Outcome, type PlanProgress, type TslabModule } from "@tslab/wasm";
import wasmUrl from "./wasm/tslab.wasm?url";
import type { PlannerReply, PlannerRequest } from "./types/step";

/** Combinations per planStep slice: about 10 ms of wasm work (3-6M combinations/s), so progress is smooth and a cancel lands quickly. */
const sliceBudget = 50_000;

let module: Promise<TslabModule> | undefined;
let running = 0; // the id of the search in progress; 0 when none

const post = (reply: PlannerReply) => (self as unknown as Worker).postMessage(reply);
/** An Outcome's parsed value, or an Error with its message (the facade never throws). */
function value<T>(r: Outcome): T {
  if (!r.ok) throw new Error(r.error);
  return JSON.parse(r.value) as T;
}

function loop(mod: TslabModule, id: number): void {
  if (running !== id) return;
  try {
    const progress = value<PlanProgress>(mod.planStep(sliceBudget));
    post({ type: "progress", id, progress });
    if (progress.done) {
      running = 0;
      post({ type: "result", id, plan: value(mod.planResult()) });
      mod.planCancel();
      return;
    }
  } catch (e) {
    running = 0;
    post({ type: "error", id, message: e instanceof Error ? e.message : String(e) });
    return;
  }
  setTimeout(() => loop(mod, id), 0); // yield so a cancel message is read between slices
}

self.addEventListener("message", (event: MessageEvent<PlannerRequest>) => {
  const msg = event.data;
  if (msg.type === "cancel") {
    running = 0;
    void module?.then((mod) => mod.planCancel());
    return;
  }
  module ??= createTslab({ locateFile: () => wasmUrl });
  module.then(
    (mod) => {
      try {
        const progress = value<PlanProgress>(mod.planStart(JSON.stringify(msg.scenario), JSON.stringify(msg.options)));
        running = msg.id;
        post({ type: "progress", id: msg.id, progress });
        loop(mod, msg.id);
      } catch (e) {
        post({ type: "error", id: msg.id, message: e instanceof Error ? e.message : String(e) });
      }
    },
    (e: unknown) => post({ type: "error", id: msg.id, message: `wasm: ${e instanceof Error ? e.message : String(e)}` }),
  );
});
