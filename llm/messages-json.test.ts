import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdMessagesJson, messagesBytes, messagesJson, objectPieces, piecesBytes, piecesLength, piecesWithMessages, utf8Bytes, type JsonPiece } from './messages-json.js';
import type { ChatMessage } from './types.js';

/** The pieces' bytes against JSON.stringify's text in UTF-8. */
const expectBytes = (pieces: JsonPiece[], value: unknown) => expect(piecesBytes(pieces).equals(Buffer.from(JSON.stringify(value), 'utf8'))).toBe(true);

const prompt = (): ChatMessage[] => [
  { role: 'system', content: 'You play "Alice".\nStay in character.\t\u2028' },
  { role: 'user', content: `# Situation\n${'a kitchen, late; '.repeat(200)}é 😀 \ud800 lone \\ back\u0000slash\n` },
];

afterEach(() => vi.restoreAllMocks());

describe('messages serialised once (llm/messages-json.ts)', () => {
  it('writes what JSON.stringify writes, byte for byte, for request bodies and cassette entries', () => {
    const messages = prompt();
    const values: unknown[] = [
      { temperature: 0.7, model: 'gpt-4', messages, response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' } } } },
      { messages, json: undefined, params: { temperature: 0.7, top_p: undefined, f: () => 1 }, maxTokens: 10 },
      { 1: 'integer key first', messages, b: [undefined, () => 1, null], c: null, d: 'x' },
      { messages: 'not a list' },
      { toJSON: () => 'own', messages },
      Object.assign(Object.create({ inherited: 1 }) as object, { messages }),
      [messages],
      null,
      'text',
      {},
    ];
    for (const v of values) expectBytes(piecesWithMessages(v), v);
    const release = holdMessagesJson(messages);
    for (const v of values) expectBytes(piecesWithMessages(v), v);
    release();
    const entry = { seq: 0, provider: 'openai', model: 'm', request: { messages }, at: 'now', response: { content: 'hi' }, error: undefined };
    expectBytes(objectPieces(entry, (key) => (key === 'request' ? piecesWithMessages(entry.request) : undefined)), entry);
    const first = { request: { messages }, seq: 1 };
    expectBytes(objectPieces(first, (key) => (key === 'request' ? piecesWithMessages(first.request) : undefined)), first);
    const ascii = [{ role: 'user' as const, content: 'plain "text"\n' }];
    const body = { model: 'm', messages: ascii, n: 1 };
    expectBytes(piecesWithMessages(body), body);
    const pieces = piecesWithMessages(body);
    const head = 'POST /v1 HTTP/1.1\r\nx: \xe9\r\n\r\n';
    expect(piecesBytes(pieces, piecesLength(pieces), head).equals(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(JSON.stringify(body))]))).toBe(true);
  });

  it('encodes text to UTF-8 as Buffer.from does, ASCII or not', () => {
    for (const text of ['', 'ascii only {"a":1}\n', 'caf\u00e9', '\u00ff\u0100', 'emoji 😀', 'lone \ud800 surrogate', 'x'.repeat(10_000), `${'y'.repeat(5000)}é`]) {
      expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });

  it('encodes a held list once while it is unchanged, and anew once it changed', () => {
    const messages = prompt();
    const release = holdMessagesJson(messages);
    const bytes = messagesBytes(messages);
    expect(bytes.equals(Buffer.from(JSON.stringify(messages)))).toBe(true);
    expect(messagesBytes(messages)).toBe(bytes);
    messages[1]!.content += ' more';
    const changed = messagesBytes(messages);
    expect(changed).not.toBe(bytes);
    expect(changed.equals(Buffer.from(JSON.stringify(messages)))).toBe(true);
    release();
    expect(messagesBytes(messages)).not.toBe(messagesBytes(messages));
  });

  it('serialises a held list once, and again once it changed in any way', () => {
    const messages = prompt();
    const release = holdMessagesJson(messages);
    const want = JSON.stringify(messages);
    expect(messagesJson(messages)).toBe(want);
    const spy = vi.spyOn(JSON, 'stringify');
    expect(messagesJson(messages)).toBe(want);
    expect(spy.mock.calls.filter(([v]) => v === messages)).toHaveLength(0);
    spy.mockRestore();
    const changes: Array<(m: ChatMessage[]) => void> = [
      (m) => (m[1]!.content += ' more'),
      (m) => (m[0]!.role = 'user'),
      (m) => m.push({ role: 'assistant', content: 'x' }),
      (m) => (m[0] = { ...m[0]! }),
      (m) => Object.assign(m[1]!, { name: 'bob' }),
      (m) => m.pop(),
    ];
    for (const change of changes) {
      change(messages);
      expect(messagesJson(messages)).toBe(JSON.stringify(messages));
    }
    release();
  });

  it('keeps a list\'s JSON only while it is held: unheld or released, it is serialised at each use (nothing outlives its call)', () => {
    const messages = [{ role: 'user' as const, content: 'ask' }];
    const want = '[{"role":"user","content":"ask"}]';
    const spy = vi.spyOn(JSON, 'stringify');
    const made = () => spy.mock.calls.filter(([v]) => v === messages).length;
    expect(messagesJson(messages)).toBe(want);
    expect(messagesJson(messages)).toBe(want);
    expect(made()).toBe(2);
    const first = holdMessagesJson(messages);
    const second = holdMessagesJson(messages);
    expect(messagesJson(messages)).toBe(want);
    expect(messagesJson(messages)).toBe(want);
    expect(made()).toBe(3);
    first();
    first();
    expect(messagesJson(messages)).toBe(want);
    expect(made()).toBe(3);
    second();
    expect(messagesJson(messages)).toBe(want);
    expect(made()).toBe(4);
  });
});
