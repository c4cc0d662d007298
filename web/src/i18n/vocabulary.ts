// Chinese labels for some of the core's vocabulary rows, keyed "<prefix>.<core name>"; any row without one shows the core's own label.
import type { Lang } from "../i18n";

/** Recompute modes (presets().vocabulary.recompute_modes) with the Chinese gloss; English uses the core's labels. */
const zh: Record<string, string> = {
  "opt.none": "none · 不重算",
  "opt.selective": "selective · 选择性重算",
  "opt.full": "full · 全部重算",
};

export const vocabularyStrings: Record<Lang, Record<string, string>> = { "zh-CN": zh, en: {} };
