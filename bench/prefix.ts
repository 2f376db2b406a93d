import type { ChatMessage } from '../llm/index.js';

/** A prompt as a provider sees it: the messages serialised (the fake server counts tokens on this). */
export const promptText = (messages: readonly ChatMessage[]): string => JSON.stringify(messages);

/** Length of the common prefix of two strings. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * For one seat's prompts in order: how much of each prompt is an unchanged prefix of the seat's previous
 * prompt (what provider prompt caching can reuse). The first prompt has no previous one.
 */
export function prefixReuse(prompts: readonly string[]): Array<{ length: number; reused: number }> {
  return prompts.map((p, i) => ({ length: p.length, reused: i === 0 ? 0 : commonPrefix(prompts[i - 1]!, p) }));
}
