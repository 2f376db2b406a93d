/** Tiny DOM helpers shared by the pages: elements with text and attributes, never innerHTML (the data are untrusted). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

/**
 * Untrusted text (a name, a move's argument) in its own bidirectional isolate: a right-to-left override
 * inside it cannot run on into, and reverse, the page's own words around it. Explicit direction controls
 * (embeddings, overrides, isolates: never needed by a name or a sentence in any script) are shown as
 * their code point, not obeyed: `select \u202Enna` reads as "selected [U+202E]nna", never "selected ann".
 */
export function bdi(text: string): HTMLElement {
  return el('bdi', {}, shownControls(text));
}

const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** `text` with each explicit direction control replaced by a visible `[U+XXXX]`. */
export function shownControls(text: string): string {
  return text.replace(DIRECTION_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`);
}

/** Replaces an element's content. */
export function fill(target: Element, ...children: Array<Node | string>): void {
  target.replaceChildren(...children);
}

/**
 * Sets an element's text as its one text node's data: a clock's text changes in place (one character-data
 * change, no node replaced) and nothing happens when the text is what is shown already.
 */
export function setText(target: Element, text: string): void {
  const only = target.firstChild;
  if (only !== null && only === target.lastChild && only.nodeType === Node.TEXT_NODE) {
    if ((only as Text).data !== text) (only as Text).data = text;
  } else if (target.textContent !== text) target.textContent = text;
}
