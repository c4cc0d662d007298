// A small lexer for the name-list test: every string literal (quoted or template text) of a TS/JS source, with its line.

/** Marker on a source line whose literal is a word that only happens to spell a vocabulary name (an SVG keyword, a CSS class). */
export const exemptMarker = "not-a-vocabulary-name";

/** [{ text, line }] of each '...', "..." and `...` literal (template text between ${...} parts), comments skipped. */
export function stringLiterals(src) {
  const out = [];
  let i = 0;
  let line = 1;
  const stack = []; // open template literals, each waiting for its ${ } depth to return to 0
  const push = (text, at) => out.push({ text, line: at });
  while (i < src.length) {
    const c = src[i];
    if (c === "\n") line++;
    if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end < 0 ? src.length : end + 2;
      line += (src.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let text = "";
      while (j < src.length && src[j] !== c && src[j] !== "\n") ((text += src[j] === "\\" ? src[++j] : src[j]), j++);
      push(text, line);
      i = j + 1;
      continue;
    }
    if (c === "`" || (c === "}" && stack.length && stack[stack.length - 1] === 0)) {
      if (c === "}") stack.pop();
      let j = i + 1;
      let text = "";
      const at = line;
      while (j < src.length && src[j] !== "`" && !(src[j] === "$" && src[j + 1] === "{")) {
        if (src[j] === "\n") line++;
        text += src[j] === "\\" ? src[++j] : src[j];
        j++;
      }
      push(text, at);
      if (src[j] === "$") (stack.push(0), (i = j + 2));
      else i = j + 1;
      continue;
    }
    if (stack.length && c === "{") stack[stack.length - 1]++;
    if (stack.length && c === "}") stack[stack.length - 1]--;
    i++;
  }
  return out;
}
