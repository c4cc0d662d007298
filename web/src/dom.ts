// Small DOM builders shared by the lab's panels and views.

export const svgNs = "http://www.w3.org/2000/svg";

/** `<tag class=cls>text</tag>`; an empty class or text is left out. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls = "", text = ""): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

/** An SVG element with its attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(svgNs, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** Makes `wrap` the frame a wide table scrolls in (lab.css): a named region the keyboard can focus and scroll sideways. */
export function scrollFrame<T extends HTMLElement>(wrap: T, name: string): T {
  wrap.classList.add("tsl-frame");
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", name);
  return wrap;
}
