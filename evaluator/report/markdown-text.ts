/**
 * The one owner of escaping data into the report's Markdown (report.md, and through it report.html).
 * Every datum that came from a scenario file, a run's records or a remote client is written through
 * `mdText` (or `mdCode`): it becomes one line of plain text that no Markdown reader, ours or another,
 * turns into a link, an image, raw HTML, a heading or a table cell boundary.
 */

/** Control characters, line/paragraph separators and zero-width/bidi format characters. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]+/g;

/** Markdown's punctuation that can start or end a construct (CommonMark treats `\` + any of these as a literal). */
/** (`_` inside a word, as in `max_turns`, starts nothing in CommonMark and is left readable.) */
const MD_PUNCT = /[\\`*[\]<>|!~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;

/** One line: controls and newlines become a space, runs of spaces collapse. */
export function singleLine(value: unknown): string {
  return String(value).replace(CONTROLS, ' ').replace(/ {2,}/g, ' ').trim();
}

/** A datum as Markdown text: one line, every Markdown punctuation character backslash-escaped. */
export function mdText(value: unknown): string {
  return singleLine(value).replace(MD_PUNCT, (c) => `\\${c}`);
}

/**
 * A datum as an inline code span: one line, backticks replaced (a code span cannot escape them) and `|`
 * written `\|`, which GFM tables (and markdown-html.ts) read as a literal bar even inside code.
 */
export function mdCode(value: unknown): string {
  return `\`${singleLine(value).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

/**
 * A link target the report may write: a relative path (no scheme, not protocol-relative) or an http(s)
 * URL. Anything else (`javascript:`, `data:`, `//host`, `file:`) is refused with null.
 */
export function safeHref(target: string): string | null {
  const t = target.trim();
  if (new RegExp(CONTROLS.source).test(t)) return null;
  if (/^https?:\/\/[^\s]+$/i.test(t)) return t;
  if (t.startsWith('//') || t.startsWith('\\') || /^[a-z][a-z0-9+.-]*:/i.test(t)) return null;
  return /^[A-Za-z0-9._~/#%-]+$/.test(t) ? t : null;
}
