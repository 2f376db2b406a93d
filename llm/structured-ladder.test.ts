import { beforeEach, describe, expect, it } from 'vitest';
import { LlmError, LlmErrorCode } from './errors.js';
import type { StructuredMode } from './options.js';
import { resetStructuredMemory, structuredLadder } from './structured-ladder.js';
import type { ChatRequest } from './types.js';

const REQ: ChatRequest = { messages: [{ role: 'user', content: 'Move.' }], json: { name: 'move', schema: { type: 'object' } } };

/** A provider whose answers the test releases one by one; `rejects` are the modes it answers with a 400. */
function provider(rejects: readonly StructuredMode[] = []) {
  const sent: StructuredMode[] = [];
  const pending: Array<() => void> = [];
  const send = (_req: ChatRequest, _signal: AbortSignal, mode: StructuredMode) => {
    sent.push(mode);
    if (rejects.includes(mode)) return Promise.reject(new LlmError(LlmErrorCode.HttpError, `400: response_format ${mode} is not supported`, { status: 400 }));
    return new Promise<{ content: string }>((resolve) => pending.push(() => resolve({ content: '{"ok":true}' })));
  };
  return { sent, send, answerAll: () => pending.splice(0).forEach((answer) => answer()) };
}

/** Lets every promise chain that can move, move. */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('structured-output ladder, calls started together', () => {
  beforeEach(() => resetStructuredMemory());

  it('sends every call at once before any rung has answered: none waits for the first one\'s answer', async () => {
    const p = provider();
    const chat = structuredLadder('k1', 'json_schema', p.send);
    const calls = Array.from({ length: 10 }, () => chat(REQ, new AbortController().signal));
    await settle();
    // Ten seats of one agent process making their first move together: ten requests out, no answer yet.
    expect(p.sent).toEqual(Array(10).fill('json_schema'));
    p.answerAll();
    for (const r of await Promise.all(calls)) expect(r).toEqual({ content: '{"ok":true}' });
  });

  it('against a server that rejects the schema, each steps down on its own, and a later call starts on the learned rung', async () => {
    const p = provider(['json_schema']);
    const chat = structuredLadder('k2', 'json_schema', p.send);
    const calls = [chat(REQ, new AbortController().signal), chat(REQ, new AbortController().signal)];
    await settle();
    expect(p.sent).toEqual(['json_schema', 'json_schema', 'json_object', 'json_object']);
    p.answerAll();
    for (const r of await Promise.all(calls)) expect(r.structured).toEqual({ mode: 'json_object', rejected: 1, fallback: true });
    const later = chat(REQ, new AbortController().signal);
    await settle();
    p.answerAll();
    expect((await later).structured).toEqual({ mode: 'json_object', rejected: 0, fallback: true });
    expect(p.sent.slice(4)).toEqual(['json_object']);
  });
});
