// The planner's Web Worker: its own wasm instance behind the same client as the panels (profile included) runs the sliced
// search, or one part of it (the page runs the parts in several of these and has one merge them).
import { errorReply, loadClient, type TslabClient } from "./client";
import type { PlannerReply, PlannerRequest } from "./types/step";

/** Combinations per planStep slice: about 10 ms of wasm work (3-6M combinations/s), so progress is smooth and a cancel lands quickly. */
const sliceBudget = 50_000;

let running = 0; // the id of the search in progress; 0 when none

// The page makes this Worker ahead of the first run: load the wasm now, while online (a failure is reported on the first run).
loadClient().catch(() => undefined);

const post = (reply: PlannerReply) => (self as unknown as Worker).postMessage(reply);

function loop(client: TslabClient, id: number, parts: number): void {
  if (running !== id) return;
  try {
    const progress = client.planStep(sliceBudget);
    post({ type: "progress", id, progress });
    if (progress.done) {
      running = 0;
      if (parts > 1) post({ type: "part", id, state: client.planPartState() });
      else post({ type: "result", id, plan: client.planResult() });
      client.planCancel();
      return;
    }
  } catch (e) {
    running = 0;
    post({ type: "error", id, ...errorReply(e) });
    return;
  }
  setTimeout(() => loop(client, id, parts), 0); // yield so a cancel message is read between slices
}

/** The page's profile becomes this client's (loadCalibration validates it again), so plan() sees what report() sees. */
function start(client: TslabClient, msg: Extract<PlannerRequest, { type: "run" }>): void {
  try {
    if (msg.calibration) client.loadCalibration(msg.calibration.text, msg.calibration.fileName);
    else client.clearCalibration();
    const progress =
      msg.parts > 1 ? client.planPartStart(msg.scenario, msg.options, msg.part, msg.parts) : client.planStart(msg.scenario, msg.options);
    running = msg.id;
    post({ type: "progress", id: msg.id, progress });
    loop(client, msg.id, msg.parts);
  } catch (e) {
    post({ type: "error", id: msg.id, ...errorReply(e) });
  }
}

/** Every part's state (this worker's client has the page's profile from its own run) merged into the result. */
function merge(client: TslabClient, msg: Extract<PlannerRequest, { type: "merge" }>): void {
  try {
    post({ type: "result", id: msg.id, plan: client.planMerge(msg.scenario, msg.options, msg.states) });
  } catch (e) {
    post({ type: "error", id: msg.id, ...errorReply(e) });
  }
}

self.addEventListener("message", (event: MessageEvent<PlannerRequest>) => {
  const msg = event.data;
  if (msg.type === "cancel") {
    running = 0;
    void loadClient().then((client) => client.planCancel());
    return;
  }
  loadClient().then(
    (client) => (msg.type === "merge" ? merge(client, msg) : start(client, msg)),
    (e: unknown) => post({ type: "error", id: msg.id, ...errorReply(`wasm: ${errorReply(e).reason}`) }),
  );
});
