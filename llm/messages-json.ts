import type { ChatMessage } from './types.js';

/**
 * A request's messages serialised once a call, for the two places that write them: the HTTP body
 * (openai-http.ts) and the cassette's line (cassette.ts). Why: `JSON.stringify` of a ~6 KB prompt, done
 * twice a turn, was ~6 % of a warm model seat's CPU, more than half of it the second time, for the same
 * bytes (bench/agent-profile.md, ninth pass). The output is `JSON.stringify`'s, byte for byte
 * (llm/messages-json.test.ts).
 */

interface Serialised {
  json: string;
  /** What the JSON was made from: each message object, its role, its content and its own key count. */
  seen: Array<{ message: ChatMessage; role: string; content: string; keys: number }>;
}

/**
 * The last lists serialised, by list, oldest first. Bounded and strong, not a WeakMap: a WeakMap's entry (a
 * ~6 KB string) lives until a full collection finds its list dead. A process has at most one call in flight
 * per seat it hosts, and a call's cassette line follows its body, so a few dozen lists are enough.
 */
const serialised = new Map<readonly ChatMessage[], Serialised>();
const MAX_LISTS = 32;

function keyCount(message: object): number {
  let n = 0;
  for (const key in message) if (Object.hasOwn(message, key)) n++;
  return n;
}

/** Whether `messages` still hold what their JSON was made from (nobody changed the list or a message since). */
function unchanged(messages: readonly ChatMessage[], s: Serialised): boolean {
  if (messages.length !== s.seen.length) return false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const was = s.seen[i]!;
    if (m !== was.message || m.role !== was.role || m.content !== was.content || keyCount(m) !== was.keys) return false;
  }
  return true;
}

/** `JSON.stringify(messages)`, made once for a list as long as it is not changed. */
export function messagesJson(messages: readonly ChatMessage[]): string {
  const known = serialised.get(messages);
  if (known && unchanged(messages, known)) return known.json;
  const json = JSON.stringify(messages);
  serialised.delete(messages);
  if (serialised.size >= MAX_LISTS) serialised.delete(serialised.keys().next().value!);
  serialised.set(messages, { json, seen: messages.map((message) => ({ message, role: message.role, content: message.content, keys: keyCount(message) })) });
  return json;
}

/**
 * `JSON.stringify(value)` for a plain object (no `toJSON`, no replacer), with the JSON of some of its
 * properties given ready-made by `given` (undefined: serialised here). Properties `JSON.stringify` leaves
 * out (undefined, functions, symbols) are left out the same way.
 */
export function objectJson(value: Record<string, unknown>, given: (key: string, v: unknown) => string | undefined): string {
  let out = '{';
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    const json = given(key, v) ?? JSON.stringify(v);
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${json}`;
  }
  return `${out}}`;
}

/**
 * `JSON.stringify(value)`; for a plain object (no prototype but Object's, no `toJSON`), its `messages`, when
 * a list, serialised through `messagesJson`.
 */
export function jsonWithMessages(value: unknown): string {
  const plain = typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !('toJSON' in value);
  if (!plain) return JSON.stringify(value);
  return objectJson(value as Record<string, unknown>, (key, v) => (key === 'messages' && Array.isArray(v) ? messagesJson(v as ChatMessage[]) : undefined));
}
