/**
 * The one normal form of an annotator's name, so look-alikes (`Alice`, `ali<ZWSP>ce`, full-width
 * letters, doubled spaces) are one annotator: Unicode NFKC, zero-width/format and control characters
 * removed, whitespace collapsed, case-folded.
 */
export function normaliseAnnotator(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}]/gu, (c) => (/\s/.test(c) ? ' ' : ''))
    .replace(/\s+/gu, ' ')
    .trim()
    .toLocaleLowerCase('und');
}
