/**
 * Partner text (an utterance, a gesture, a physical action) as it may appear inside a prompt. Every line
 * break, control character and Unicode line/paragraph separator is shown as an escape (`\n`, `\u2028`, …)
 * — visible, never acted on — so no partner text can start a line of its own and pass for a heading or an
 * instruction of the prompt ("# Your goal (only you know it)"). Both prompt renderers use this file:
 * `parley`'s quotes every action type with `quotePartnerText`; `paper`'s keeps SOTOPIA's `"…"` around
 * `visibleText`.
 */

/** Line breaks, controls (C0, DEL, C1 with NEL) and U+2028/9 as visible escapes; trimmed. */
export function visibleText(text: string): string {
  return text
    .trim()
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A partner's text in double quotes on one line: JSON's escaping (inner quotes too), plus NEL, C1 and U+2028/9. */
export function quotePartnerText(text: string): string {
  // JSON.stringify quotes and escapes \n, \r, \t, other C0 controls, `"` and `\`; it leaves U+2028/9,
  // NEL and the C1 range as they are, which some tokenizers and viewers treat as line breaks.
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
