/**
 * Word counting for the verbosity and repetition metrics. A word is a run of letters or digits, with
 * inner apostrophes or hyphens kept ("don't", "well-known" are one word); punctuation and emoji are not words.
 */
// Non-ASCII as \u escapes: the CLI bundle stays ASCII, read as a one-byte string (test/cli-bundle.test.ts).
const WORD = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu;

/** The words of a text, lower-cased. */
export function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** The word n-grams of one utterance (n-grams never span two turns). */
export function ngrams(tokens: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join(' '));
  return out;
}

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `text` names `name`: case-insensitive, any whitespace between the name's words, and not as
 * part of a longer word ("Ann" is not found in "Anna").
 */
export function mentions(text: string, name: string): boolean {
  const parts = name.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (parts.length === 0) return false;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${parts.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu');
  return re.test(text);
}
