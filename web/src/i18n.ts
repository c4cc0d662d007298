// UI strings: zh-CN by default (technical terms stay in English), with an English toggle.
import { calibrationEn, calibrationZh } from "./i18n/calibration";

import { commStrings } from "./i18n/comm";
import { meshStrings } from "./i18n/mesh";
import { pipelineEn, pipelineZh } from "./i18n/pipeline";
import { stepStrings } from "./i18n/step";
import { plannerStrings } from "./i18n/planner";
import { shareStrings } from "./i18n/share";
import { reliabilityStrings } from "./i18n/reliability";
import { contextStrings } from "./i18n/context";
import { expertStrings } from "./i18n/expert";
import { numericsStrings } from "./i18n/numerics";
import { vocabularyStrings } from "./i18n/vocabulary";

export type Lang = "zh-CN" | "en";

const zh = {
  "lab.title": "训练系统实验室 Training Systems Lab",
  "lab.eyebrow": "C++ 内核 · 与 tslab report 输出同一份 JSON",
  "lab.loading": "正在加载 wasm core…",
  "lab.loadFailed": "wasm core 加载失败：",
  "lab.langToggle": "English",
  "lab.langToggleLabel": "切换界面语言为 English",
  "lab.panels": "实验面板",
  "panel.memory": "L1 + L2 · 显存账 Memory",
  "mem.controls": "配置 scenario",
  "mem.group.model": "模型与集群",
  "mem.group.parallel": "并行 parallel",
  "mem.group.training": "训练 training",
  "mem.model": "模型 preset",
  "mem.cluster": "集群 cluster",
  "mem.dp": "DP 数据并行",
  "mem.tp": "TP 张量并行",
  "mem.pp": "PP 流水线并行",
  "mem.vpp": "VPP 虚拟 stage",
  "mem.ep": "EP 专家并行",
  "mem.cp": "CP 上下文并行",
  "mem.sp": "SP 序列并行 (Megatron)",
  "mem.zero": "ZeRO stage",
  "mem.zero.0": "0 · 全部复制",
  "mem.zero.1": "1 · 切 optimizer states",
  "mem.zero.2": "2 · 再切 gradients",
  "mem.zero.3": "3 · 再切 parameters",
  "mem.micro_batch": "micro-batch",
  "mem.global_batch": "global batch（留空 = auto）",
  "mem.seq_len": "序列长度 seq_len",
  "mem.recompute": "重算 recompute",
  "mem.flash": "FlashAttention",
  "mem.precision": "精度配方 precision",
  "mem.optimizer": "优化器 optimizer",
  "mem.offload_opt": "offload optimizer → host",
  "mem.offload_dpu": "延迟一步更新 delayed update (DPU)",
  "mem.offload_act": "offload activations → host",
  "mem.schedule": "pipeline schedule",
  "mem.trial": "试一试：70B → ZeRO-3",
  "mem.trial.hint": "llama3-70b · DP 64 · TP 1 · PP 1 · full recompute",
  "mem.trial.result": "模型状态 model state",
  "mem.trial.closed": "ZeRO 论文闭式",
  "mem.bars": "每张 GPU 的 HBM",
  "mem.bars.loaded": "最满",
  "mem.bars.stage": "stage",
  "mem.capacity": "HBM 容量",
  "mem.fits": "放得下",
  "mem.oom": "OOM · 放不下",
  "mem.headroom": "剩余",
  "mem.over": "超出",
  "mem.total": "合计（HBM 内）",
  "mem.ledger": "显存账本 ledger（最满 rank）",
  "mem.col.item": "项目",
  "mem.col.gib": "GiB（2³⁰ B）",
  "mem.col.gb": "GB（10⁹ B）",
  "mem.col.formula": "公式 formula",
  "mem.units": "1 GiB = 2³⁰ B = 1.074 GB；1 GB = 10⁹ B。",
  "mem.params": "参数总量 P",
  "mem.rankInfo": "rank {rank} · stage {stage} · {layers} layers · {inflight} micro-batches in flight",
  "mem.stale": "输入有误：下面保留上一次有效结果。",
  "mem.errorGeneral": "输入有误",
  "mem.modelState": "模型状态 model state（params + grads + master + optimizer）",
  "item.params": "参数 params",
  "item.grads": "梯度 grads",
  "item.master_params": "master 参数",
  "item.optimizer_states": "optimizer states",
  "item.redundant_experts": "冗余专家 redundant experts（副本权重 + 梯度）",
  "item.activations_layers": "激活 activations（各层）",
  "item.activations_other": "激活 activations（embedding / logits）",
  "item.comm_buffers": "通信 buffers",
  "item.offloaded": "已 offload 到 host（不计入 HBM）",
  ...meshStrings.zh,
  ...commStrings.zh,
  ...calibrationZh,
  ...pipelineZh,
  ...stepStrings.zh,
  ...plannerStrings.zh,
  ...shareStrings.zh,
  ...reliabilityStrings.zh,
  ...contextStrings.zh,
  ...expertStrings.zh,
  ...numericsStrings.zh,
};

export type MessageKey = keyof typeof zh;

const en: Record<MessageKey, string> = {
  "lab.title": "Training Systems Lab",
  "lab.eyebrow": "C++ core · the same JSON as tslab report",
  "lab.loading": "Loading the wasm core…",
  "lab.loadFailed": "The wasm core failed to load: ",
  "lab.langToggle": "中文",
  "lab.langToggleLabel": "Switch the interface to Chinese",
  "lab.panels": "Lab panels",
  "panel.memory": "L1 + L2 · Memory",
  "mem.controls": "Scenario",
  "mem.group.model": "Model and cluster",
  "mem.group.parallel": "Parallel",
  "mem.group.training": "Training",
  "mem.model": "Model preset",
  "mem.cluster": "Cluster",
  "mem.dp": "DP data parallel",
  "mem.tp": "TP tensor parallel",
  "mem.pp": "PP pipeline parallel",
  "mem.vpp": "VPP virtual stages",
  "mem.ep": "EP expert parallel",
  "mem.cp": "CP context parallel",
  "mem.sp": "SP sequence parallel (Megatron)",
  "mem.zero": "ZeRO stage",
  "mem.zero.0": "0 · replicate all",
  "mem.zero.1": "1 · shard optimizer states",
  "mem.zero.2": "2 · + shard gradients",
  "mem.zero.3": "3 · + shard parameters",
  "mem.micro_batch": "Micro-batch",
  "mem.global_batch": "Global batch (empty = auto)",
  "mem.seq_len": "Sequence length",
  "mem.recompute": "Recompute",
  "mem.flash": "FlashAttention",
  "mem.precision": "Precision recipe",
  "mem.optimizer": "Optimizer",
  "mem.offload_opt": "Offload optimizer → host",
  "mem.offload_dpu": "Delayed update (DPU)",
  "mem.offload_act": "Offload activations → host",
  "mem.schedule": "Pipeline schedule",
  "mem.trial": "Try it: 70B → ZeRO-3",
  "mem.trial.hint": "llama3-70b · DP 64 · TP 1 · PP 1 · full recompute",
  "mem.trial.result": "Model state",
  "mem.trial.closed": "ZeRO paper closed form",
  "mem.bars": "HBM per GPU",
  "mem.bars.loaded": "peak",
  "mem.bars.stage": "stage",
  "mem.capacity": "HBM capacity",
  "mem.fits": "Fits",
  "mem.oom": "OOM · does not fit",
  "mem.headroom": "headroom",
  "mem.over": "over by",
  "mem.total": "Total (in HBM)",
  "mem.ledger": "Memory ledger (most-loaded rank)",
  "mem.col.item": "Item",
  "mem.col.gib": "GiB (2³⁰ B)",
  "mem.col.gb": "GB (10⁹ B)",
  "mem.col.formula": "Formula",
  "mem.units": "1 GiB = 2³⁰ B = 1.074 GB; 1 GB = 10⁹ B.",
  "mem.params": "Total parameters P",
  "mem.rankInfo": "rank {rank} · stage {stage} · {layers} layers · {inflight} micro-batches in flight",
  "mem.stale": "Input error: the last valid result stays below.",
  "mem.errorGeneral": "Input error",
  "mem.modelState": "Model state (params + grads + master + optimizer)",
  "item.params": "Parameters",
  "item.grads": "Gradients",
  "item.master_params": "Master parameters",
  "item.optimizer_states": "Optimizer states",
  "item.redundant_experts": "Redundant experts (replica weights + grads)",
  "item.activations_layers": "Activations (layers)",
  "item.activations_other": "Activations (embedding / logits)",
  "item.comm_buffers": "Communication buffers",
  "item.offloaded": "Offloaded to host (not in HBM)",
  ...meshStrings.en,
  ...commStrings.en,
  ...calibrationEn,
  ...pipelineEn,
  ...stepStrings.en,
  ...plannerStrings.en,
  ...shareStrings.en,
  ...reliabilityStrings.en,
  ...contextStrings.en,
  ...expertStrings.en,
  ...numericsStrings.en,
};

const dictionaries: Record<Lang, Record<MessageKey, string>> = { "zh-CN": zh, en };

let current: Lang = "zh-CN";
const listeners = new Set<(lang: Lang) => void>();

export function lang(): Lang {
  return current;
}

/** The message for key, with {name} placeholders filled from vars. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return dictionaries[current][key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? `{${k}}`));
}

/** The message for a key built from a core name ("opt.full"), or fallback (the core's own label) when no dictionary has it. */
export function tOr(key: string, fallback: string): string {
  const text = (dictionaries[current] as Record<string, string>)[key] ?? vocabularyStrings[current][key];
  return text ?? fallback;
}

export function setLang(next: Lang): void {
  if (next === current) return;
  current = next;
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn: (lang: Lang) => void): void {
  listeners.add(fn);
}

/** Refreshes every [data-i18n] text and [data-i18n-label] aria-label under root. */
export function applyI18n(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n]")) el.textContent = t(el.dataset.i18n as MessageKey);
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel as MessageKey));
}
