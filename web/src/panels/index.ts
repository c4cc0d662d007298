// The registered lab panels, in tab order. A new panel is one module plus one line here.
import type { Panel } from "./panel";
import { memoryPanel } from "./memory";
import { pipelinePanel } from "./pipeline";
import { meshPanel } from "./mesh";
import { commPanel } from "./comm";
import { contextPanel } from "./context";
import { stepPanel } from "./step";
import { plannerPanel } from "./planner";
import { reliabilityPanel } from "./reliability";
import { expertPanel } from "./expert";
import { numericsPanel } from "./numerics";

export const panels: readonly Panel[] = [
  memoryPanel,
  pipelinePanel,
  meshPanel,
  commPanel,
  expertPanel,
  contextPanel,
  numericsPanel,
  reliabilityPanel,
  stepPanel,
  plannerPanel,
];
