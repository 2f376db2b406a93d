import { messageListJson } from './json-prefix.js';
import type { ChatMessage } from './types.js';

/**
 * A request's messages serialised once a call, and encoded to UTF-8 once, for the two places that write
 * them: the HTTP body (openai-http.ts) and the cassette's line (cassette.ts). Why: `JSON.stringify` of a
 * ~6 KB prompt, done twice a turn, was ~6 % of a warm model seat's CPU, more than half of it the second
 * time, for the same bytes (bench/agent-profile.md, ninth pass); encoding the body and the line to UTF-8
 * each (V8's per-character encoder, and a length pass for the body) was another ~9 % of a turn's
 * instructions (seventeenth pass). The bytes are `JSON.stringify`'s in UTF-8, byte for byte
 * (llm/messages-json.test.ts).
 */

interface Serialised {
  json: string;
  /** The JSON's UTF-8 bytes, made on first use (`messagesBytes`). */
  bytes: Buffer | null;
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
  const json = messageListJson(messages);
  if (entry) entry.kept = { json, bytes: null, seen: messages.map((message) => ({ message, role: message.role, content: message.content, keys: keyCount(message) })) };
  return json;
}

/**
 * UTF-8 bytes of `text`. A text whose UTF-8 length is its length is ASCII: its bytes are its characters, copied
 * as latin1 (a copy) instead of going through V8's UTF-8 encoder character by character. The same bytes.
 */
export function utf8Bytes(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const bytes = Buffer.allocUnsafe(length);
  bytes.write(text, 0, length, length === text.length ? 'latin1' : 'utf8');
  return bytes;
}

/** `messagesJson(messages)` as UTF-8 bytes, made once for a held list as long as it is not changed. */
export function messagesBytes(messages: readonly ChatMessage[]): Buffer {
  const json = messagesJson(messages);
  const kept = held.get(messages)?.kept;
  if (!kept || kept.json !== json) return utf8Bytes(json);
  return (kept.bytes ??= utf8Bytes(json));
}

/** A JSON text in pieces, in order: text, and the UTF-8 bytes of messages (`messagesBytes`). */
export type JsonPiece = string | Buffer;

/**
 * `JSON.stringify(value)` for a plain object (no `toJSON`, no replacer) in pieces, with the JSON of some of its
 * properties given ready-made by `given` (undefined: serialised here). Properties `JSON.stringify` leaves
 * out (undefined, functions, symbols) are left out the same way.
 */
export function objectPieces(value: Record<string, unknown>, given: (key: string, v: unknown) => JsonPiece[] | undefined): JsonPiece[] {
  const pieces: JsonPiece[] = [];
  let text = '{';
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    text += `${text.length > 1 || pieces.length > 0 ? ',' : ''}${JSON.stringify(key)}:`;
    const ready = given(key, v);
    if (!ready) {
      text += JSON.stringify(v);
      continue;
    }
    for (const piece of ready) {
      if (typeof piece === 'string') text += piece;
      else {
        pieces.push(text, piece);
        text = '';
      }
    }
  }
  pieces.push(`${text}}`);
  return pieces;
}

/**
 * `JSON.stringify(value)` in pieces; for a plain object (no prototype but Object's, no `toJSON`), its
 * `messages`, when a list, as their bytes from `messagesBytes`.
 */
export function piecesWithMessages(value: unknown): JsonPiece[] {
  const plain = typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !('toJSON' in value);
  if (!plain) return [JSON.stringify(value)];
  return objectPieces(value as Record<string, unknown>, (key, v) => (key === 'messages' && Array.isArray(v) ? [messagesBytes(v as ChatMessage[])] : undefined));
}

/** The UTF-8 length of `pieces` joined. */
export function piecesLength(pieces: readonly JsonPiece[]): number {
  let length = 0;
  for (const piece of pieces) length += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  return length;
}

/** `head` (latin1: an HTTP head) then `pieces` in UTF-8, in one buffer; `length`: `piecesLength(pieces)`. */
export function piecesBytes(pieces: readonly JsonPiece[], length = piecesLength(pieces), head = ''): Buffer {
  const bytes = Buffer.allocUnsafe(head.length + length);
  let at = head ? bytes.write(head, 0, 'latin1') : 0;
  for (const piece of pieces) at += typeof piece === 'string' ? bytes.write(piece, at, 'utf8') : piece.copy(bytes, at);
  return bytes;
}
