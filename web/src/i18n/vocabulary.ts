// Chinese labels for some of the core's vocabulary rows and ledger names, keyed "<prefix>.<core name>"; any row without one shows the core's own label.
import type { Lang } from "../i18n";

/** Recompute modes (presets().vocabulary.recompute_modes) with the Chinese gloss; English uses the core's labels. */
const zh: Record<string, string> = {
  "opt.none": "none · 不重算",
  "opt.selective": "selective · 选择性重算",
  "opt.full": "full · 全部重算",
  // The nine ledgers' names (report.step.ledgers[].name).
  "ledger.L1": "模型状态 model state",
  "ledger.L2": "激活 activation",
  "ledger.L3": "计算 compute",
  "ledger.L4": "流水线 pipeline",
  "ledger.L5": "集合通信 collective",
  "ledger.L6": "专家 expert",
  "ledger.L7": "上下文 context",
  "ledger.L8": "数值 numerics",
  "ledger.L9": "可靠性 reliability",
};

export const vocabularyStrings: Record<Lang, Record<string, string>> = { "zh-CN": zh, en: {} };
