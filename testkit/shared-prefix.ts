/** Characters compared at once by string equality (native code) before the last block is walked one by one. */
const BLOCK = 256;

/**
 * The length of the longest common prefix of `a` and `b` (UTF-16 units). The fake LLM server measures
 * each prompt against its last 32 (simulated prompt caching, fake-llm-server.ts); compared a character at
 * a time in JavaScript, that was a third of the server's CPU in the latency bench, where prompts share
 * kilobytes of template (bench/agent-profile.md, fourth pass). Blocks first, then characters: the same
 * answer.
 */
export function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= n && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
