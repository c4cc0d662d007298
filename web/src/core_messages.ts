// The core's sentences ({id, args} beside each English field of a report) in the reader's language:
// zh-CN from the catalogs in i18n/core/*.zh.json, English as the core wrote it (its own templates).
import { lang } from "./i18n";
import report from "./i18n/core/report.zh.json";
import input from "./i18n/core/input.zh.json";
import tools from "./i18n/core/tools.zh.json";

/** One core sentence: a registered id (`tslab messages`) and its parameters, already formatted. */
export interface CoreMessage {
  id: string;
  args: Record<string, string>;
}

/** Every zh-CN template, by core message id. */
export const zhCoreMessages: Readonly<Record<string, string>> = { ...report, ...input, ...tools };

/** The JSON type names the core puts in a {got} parameter (json_fields.cpp json_type_name), in zh-CN. */
const zhTypeNames: Readonly<Record<string, string>> = {
  "a string": "字符串",
  "a number": "数字",
  "a boolean": "布尔值",
  "an array": "数组",
  "an object": "object",
};

/** A template filled with the core's parameters; `names` re-words a JSON type name in {got} (zh-CN's by default). */
function fill(template: string, args: Record<string, string>, names: Readonly<Record<string, string>> = zhTypeNames): string {
  return template.replace(/\{(\w+)\}/g, (whole, k: string) => (k === "got" ? (names[args[k]] ?? args[k]) : args[k]) ?? whole);
}

/**
 * The core's sentence `m` with some parameters re-expressed (a panel's own unit): the current language's template, zh-CN
 * from the catalogs and English from the core's own templates (`english`, from client.messages()); "" when neither has it.
 */
export function sayWith(m: CoreMessage, args: Record<string, string>, english: Readonly<Record<string, string>>): string {
  const zh = lang() === "en" ? undefined : zhCoreMessages[m.id];
  if (zh !== undefined) return fill(zh, args);
  const en = english[m.id];
  return en === undefined ? "" : fill(en, args, {});
}

/** The sentence in the current language; `english` is the core's own text of it (the report field). */
export function say(m: CoreMessage | null | undefined, english: string): string {
  if (!m || lang() === "en") return english;
  const zh = zhCoreMessages[m.id];
  return zh === undefined ? english : fill(zh, m.args);
}

/** Clauses of one sentence (the bottleneck, a ledger's notes), joined as each language punctuates. */
export function sayClauses(clauses: readonly CoreMessage[] | null | undefined, english: string): string {
  if (!clauses?.length || lang() === "en") return english;
  if (clauses.some((c) => zhCoreMessages[c.id] === undefined)) return english;
  return clauses.map((c) => fill(zhCoreMessages[c.id], c.args)).join("；");
}

/** An input error ("path: reason") in the current language: the path stays, the reason is translated. */
export function sayError(path: string, m: CoreMessage | null | undefined, english: string): string {
  if (!m || lang() === "en" || zhCoreMessages[m.id] === undefined) return english;
  return `${path}：${fill(zhCoreMessages[m.id], m.args)}`;
}
