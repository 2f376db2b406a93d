import { el } from '../shared/dom.js';

/** The shared helpers (web/shared/dom.ts), and the seat page's sections. */
export { bdi, el, fill, setText } from '../shared/dom.js';

/** A labelled section (`<section aria-label=…><h2>…</h2>…`). */
export function section(title: string | Array<Node | string>, ...children: Array<Node | string>): HTMLElement {
  const parts = typeof title === 'string' ? [title] : title;
  return el('section', { 'aria-label': parts.map((p) => (typeof p === 'string' ? p : p.textContent ?? '')).join('') }, el('h2', {}, ...parts), ...children);
}

/** A "Private" badge: what only this seat knows is marked in words, not only by colour. */
export const privateBadge = (): HTMLElement => el('span', { class: 'badge private' }, 'Private');

/** A labelled section whose content only this seat knows: marked with a badge and a red rule. */
export function privateSection(title: string, ...children: Array<Node | string>): HTMLElement {
  return el('section', { 'aria-label': title, class: 'private' }, el('h2', {}, title, ' ', privateBadge()), ...children);
}
