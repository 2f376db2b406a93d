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
 * The lists whose JSON is wanted twice, while their call lasts: a recording client holds its call's list from
 * the call's start to its cassette line (`holdMessagesJson`), and the HTTP body's JSON is kept for that line
 * only then. Why not a cache of the last lists (a WeakMap, then the last 32): each kept prompt and its JSON
 * (~12 KB) outlived two scavenges and was promoted, ~500 turns a ten-seat process, and the old generation grew
 * by that much between full collections (peak RSS +10 MB at ten seats, bench/agent-profile.md, tenth pass).
 * Released, an entry dies young with its call.
 */
const held = new Map<readonly ChatMessage[], { holders: number; kept: Serialised | null }>();

/**
 * Keeps `messages`' JSON, once made, until the returned function is called (once per hold; holds nest).
 * A list nobody holds is serialised at each use and nothing is kept.
 */
export function holdMessagesJson(messages: readonly ChatMessage[]): () => void {
  const entry = held.get(messages);
  if (entry) entry.holders++;
  else held.set(messages, { holders: 1, kept: null });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const e = held.get(messages);
    if (e && --e.holders === 0) held.delete(messages);
  };
}

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

/** `JSON.stringify(messages)`, made once for a held list as long as it is not changed. */
export function messagesJson(messages: readonly ChatMessage[]): string {
  const entry = held.get(messages);
  if (entry?.kept && unchanged(messages, entry.kept)) return entry.kept.json;
  const json = JSON.stringify(messages);
  if (entry) entry.kept = { json, seen: messages.map((message) => ({ message, role: message.role, content: message.content, keys: keyCount(message) })) };
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
