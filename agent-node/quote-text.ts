/**
 * A partner's text (an utterance, a gesture, a physical action) as it must appear inside a prompt:
 * in double quotes, with every line break, control character and Unicode line/paragraph separator
 * escaped (`\n`, `\u2028`, …) — visible, never acted on — so no partner text can start a line of its
 * own and pass for a heading or an instruction of the prompt ("# Your goal (only you know it)").
 *
 * For the prompt renderer (agent-node/policies/llm/render.ts, owned by the protocol-paper work): every
 * action type of a partner is to be rendered through this, not only `speak`.
 */
export function quotePartnerText(text: string): string {
  // JSON.stringify quotes and escapes \n, \r, \t, other C0 controls, `"` and `\`; it leaves U+2028/9,
  // NEL and the C1 range as they are, which some tokenizers and viewers treat as line breaks.
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
