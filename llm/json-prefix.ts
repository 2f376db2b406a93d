import type { ChatMessage } from './types.js';

/**
 * Messages whose content begins with text the same turn after turn (a seat's system message, the scenario,
 * profile and guides at the head of its user message) reuse that text's JSON instead of escaping it again
 * each turn. Why: `JSON.stringify`'s string escaping of a seat's ~6-9 KB prompt was the largest single
 * function of a warm turn's instructions (~9 %, bench/agent-profile.md, seventeenth pass), most of it text
 * that had not changed since the welcome. The output is `JSON.stringify(messages)`, byte for byte
 * (llm/json-prefix.test.ts).
 */

/** A text and its JSON string literal without the closing quote. */
export interface JsonPrefix {
  readonly text: string;
  readonly json: string;
}

export function jsonPrefix(text: string): JsonPrefix {
  return Object.freeze({ text, json: JSON.stringify(text).slice(0, -1) });
}

/** What a marked message was made with: its prefix, and the content it had then. */
const PREFIX = Symbol('jsonPrefix');
interface Marked {
  prefix: JsonPrefix;
  content: string;
}

/**
 * A message whose content is `prefix.text` then `rest`, marked so that its JSON reuses the prefix's (a property
 * JSON, spreads and Object.keys do not see). Made here, so the prefix is the content's beginning by construction
 * (no comparison a turn); a message whose content is changed afterwards is serialised whole.
 */
export function prefixedMessage(role: ChatMessage['role'], prefix: JsonPrefix, rest: string): ChatMessage {
  const message: ChatMessage = { role, content: prefix.text + rest };
  // A prefix ending in half a surrogate pair would be escaped apart from its other half: not reused.
  const last = prefix.text.charCodeAt(prefix.text.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) return message;
  Object.defineProperty(message, PREFIX, { value: { prefix, content: message.content } satisfies Marked, configurable: true });
  return message;
}

/** A message JSON.stringify writes as `{"role":…,"content":…}`: a plain object with those two string keys, in that order. */
function plainMessage(m: unknown): m is ChatMessage {
  if (typeof m !== 'object' || m === null || Object.getPrototypeOf(m) !== Object.prototype || 'toJSON' in m) return false;
  const keys = Object.keys(m);
  return keys.length === 2 && keys[0] === 'role' && keys[1] === 'content' && typeof (m as ChatMessage).role === 'string' && typeof (m as ChatMessage).content === 'string';
}

/** `JSON.stringify(messages)`, the marked messages' prefixes not escaped again. */
export function messageListJson(messages: readonly ChatMessage[]): string {
  if (!messages.some((m) => (m as unknown as Record<symbol, unknown>)[PREFIX] !== undefined) || !messages.every(plainMessage)) return JSON.stringify(messages);
  let json = '[';
  for (const m of messages) {
    const marked = (m as unknown as Record<symbol, Marked | undefined>)[PREFIX];
    json += json.length > 1 ? ',' : '';
    if (marked && marked.content === m.content) {
      json += `{"role":${JSON.stringify(m.role)},"content":${marked.prefix.json}${JSON.stringify(m.content.slice(marked.prefix.text.length)).slice(1)}}`;
    } else json += `{"role":${JSON.stringify(m.role)},"content":${JSON.stringify(m.content)}}`;
  }
  return `${json}]`;
}
