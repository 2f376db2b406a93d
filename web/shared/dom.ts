/** Tiny DOM helpers shared by the pages: elements with text and attributes, never innerHTML (the data are untrusted). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

/** Replaces an element's content. */
export function fill(target: Element, ...children: Array<Node | string>): void {
  target.replaceChildren(...children);
}
