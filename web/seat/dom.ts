/** Tiny DOM helpers: elements with text and attributes, never innerHTML (scenario text is untrusted). */
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

/** A labelled section (`<section aria-label=…><h2>…</h2>…`). */
export function section(title: string, ...children: Array<Node | string>): HTMLElement {
  return el('section', { 'aria-label': title }, el('h2', {}, title), ...children);
}

/** A "Private" badge: what only this seat knows is marked in words, not only by colour. */
export const privateBadge = (): HTMLElement => el('span', { class: 'badge private' }, 'Private');

/** A labelled section whose content only this seat knows: marked with a badge and a red rule. */
export function privateSection(title: string, ...children: Array<Node | string>): HTMLElement {
  return el('section', { 'aria-label': title, class: 'private' }, el('h2', {}, title, ' ', privateBadge()), ...children);
}
