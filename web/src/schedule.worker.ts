// The pipeline panel's Web Worker: schedules too large for a frame (schedule_io.hpp, max_foreground_ops) run here, on their own wasm instance.
import { errorReply, loadClient, type TslabClient } from "./client";
import { simulateForDrawing, type ScheduleReply, type ScheduleRequest } from "./schedule_sim";

const post = (reply: ScheduleReply) => (self as unknown as Worker).postMessage(reply);

function run(client: TslabClient, req: ScheduleRequest): void {
  const results = [];
  for (const [index, spec] of req.specs.entries()) {
    try {
      results.push(simulateForDrawing(client, spec));
    } catch (e) {
      post({ id: req.id, type: "error", index, ...errorReply(e) });
      return;
    }
  }
  post({ id: req.id, type: "results", results });
}

self.addEventListener("message", (event: MessageEvent<ScheduleRequest>) => {
  loadClient().then(
    (client) => run(client, event.data),
    (e: unknown) => post({ id: event.data.id, type: "error", index: 0, ...errorReply(`wasm: ${errorReply(e).reason}`) }),
  );
});
