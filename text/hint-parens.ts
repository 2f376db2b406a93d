/**
 * A goal hint as SOTOPIA's renderers showed it: in the parentheses its source put around it (SOTOPIA kept
 * them as text). `parenthesized`: the source wrapped this hint alone; `paren`: it opened or closed a
 * parenthesis that also held the hints nested in it. The one rendering for every paper view (a seat's
 * prompt and the judge's view).
 */
export interface ParenHint {
  text: string;
  parenthesized?: boolean | undefined;
  paren?: 'open' | 'close' | undefined;
}

/**
 * The hint's trimmed text in its source's parentheses; `bare` is what stands for a hint with none, or with
 * no text (by default its trimmed text; the judge's view keeps the text as the data wrote it).
 */
export function hintInParens(h: ParenHint, bare: string = h.text.trim()): string {
  const t = h.text.trim();
  if (!t) return bare;
  if (h.parenthesized) return `(${t})`;
  return h.paren === 'open' ? `(${t}` : h.paren === 'close' ? `${t})` : bare;
}
