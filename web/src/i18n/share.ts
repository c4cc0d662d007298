// Strings of the lab shell's share bar, link restore and Worker load failure: zh-CN with English technical terms, and English.

const zh = {
  "share.title": "分享与复现",
  "share.link": "复制链接",
  "share.json": "复制 scenario JSON",
  "share.cli": "复制 CLI 命令",
  "share.copied": "已复制：{what}",
  "share.manual": "浏览器不允许写剪贴板；请从下面的文本框手动复制。",
  "share.linkError": "链接里的实验状态无法读取，已从默认状态开始：",
  "share.trace": "下载 Perfetto trace",
  "share.traceHint": "Chrome trace JSON：在 ui.perfetto.dev 打开",
  "lab.workerFailed": "planner 的 Web Worker 没有加载成功（离线，或脚本被拦截）",
  "lab.scheduleWorkerFailed": "pipeline 的 Web Worker 没有加载成功（离线，或脚本被拦截）",
  "lab.propError": "实验室参数有误：",
};

const en: Record<keyof typeof zh, string> = {
  "share.title": "Share & reproduce",
  "share.link": "Copy link",
  "share.json": "Copy scenario JSON",
  "share.cli": "Copy CLI command",
  "share.copied": "Copied: {what}",
  "share.manual": "The browser does not allow writing to the clipboard; copy from the box below.",
  "share.linkError": "The lab state in the link cannot be read; starting from the default: ",
  "share.trace": "Download Perfetto trace",
  "share.traceHint": "Chrome trace JSON: open it in ui.perfetto.dev",
  "lab.workerFailed": "the planner's Web Worker did not load (offline, or the script was blocked)",
  "lab.scheduleWorkerFailed": "the pipeline's Web Worker did not load (offline, or the script was blocked)",
  "lab.propError": "Lab prop error: ",
};

export const shareStrings = { zh, en };
