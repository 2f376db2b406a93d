import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LlmError } from '../../llm/errors.js';
import { createOpenAiClient } from '../../llm/openai-client.js';
import { defaultOptions } from '../../llm/options.js';
import { resetStructuredMemory } from '../../llm/index.js';
import type { ChatRequest } from '../../llm/types.js';
import { closedUrl, RawHttpServer, type Canned } from '../helpers/raw-http-server.js';

/**
 * The light request path (llm/openai-http.ts) against the `openai` SDK it stands in for: on a raw TCP
 * server that records every request's bytes, the same calls through both must send identical bytes and
 * come back as identical results or errors.
 */

const OK_BODY = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'served-model',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"action_type":"speak","argument":"é ok"}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, prompt_tokens_details: { cached_tokens: 4 } },
});
const COMPLETION_BODY = JSON.stringify({ id: 'cmpl-1', object: 'text_completion', created: 1, model: 'served-model', choices: [{ index: 0, text: 'Hello there', finish_reason: 'length' }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } });

const raw = new RawHttpServer();
let base: string;

beforeAll(async () => {
  base = `${await raw.listen()}/v1`;
});
afterAll(() => raw.close());
beforeEach(() => {
  resetStructuredMemory();
  raw.received.length = 0;
  raw.next = { status: 200, body: OK_BODY };
});

const SCHEMA = { name: 'parley_action', schema: { type: 'object', properties: { action_type: { type: 'string' }, argument: { type: 'string' } }, required: ['action_type', 'argument'], additionalProperties: false } };
const REQ: ChatRequest = { messages: [{ role: 'system', content: 'Be brief — “quoted”, naïve' }, { role: 'user', content: 'Turn #1 \u2028 ok' }], json: SCHEMA, temperature: 0.7, maxTokens: 64 };

function client(sdkOnly: boolean, over: { transport?: 'chat' | 'completion'; baseURL?: string; apiKey?: string } = {}) {
  const options = { ...defaultOptions('openai'), maxRetries: 0, ...(over.transport ? { transport: over.transport } : {}) };
  return createOpenAiClient({ model: 'gpt-test', apiKey: over.apiKey ?? 'sk-test', baseURL: over.baseURL ?? base, options, sampling: { seed: 7 }, sdkOnly });
}

/** The same call through the SDK and through the light path: what each sent, and what each returned or threw. */
async function both(req: ChatRequest, over: Parameters<typeof client>[1] = {}) {
  const run = async (sdkOnly: boolean) => {
    raw.received.length = 0;
    // What the structured ladder learned from the first run must not shorten the second.
    resetStructuredMemory();
    try {
      const r = await client(sdkOnly, over).chat(req);
      return { sent: [...raw.received], result: { content: r.content, usage: r.usage, model: r.model, finishReason: r.finishReason, structured: r.structured } };
    } catch (err) {
      const e = err as LlmError;
      return { sent: [...raw.received], error: { name: e.name, code: e.code, message: e.message, status: e.status, retryAfterMs: e.retryAfterMs } };
    }
  };
  return { sdk: await run(true), http: await run(false) };
}

describe('openai requests without the SDK (llm/openai-http.ts)', () => {
  it('sends the SDK bytes exactly (request line, headers in order and case, body) and reads the same answer', async () => {
    const { sdk, http } = await both(REQ);
    expect(sdk.sent).toHaveLength(1);
    expect(sdk.sent[0]).toContain('X-Stainless-Lang: js');
    expect(http.sent).toEqual(sdk.sent);
    expect(http.result).toEqual(sdk.result);
    expect(http.result?.content).toBe('{"action_type":"speak","argument":"é ok"}');
  });

  it('keeps its connection alive across requests (the headers go out as one raw list)', async () => {
    const light = client(false);
    raw.connections = 0;
    for (let i = 0; i < 3; i++) expect((await light.chat(REQ)).content).toContain('speak');
    expect(raw.received).toHaveLength(3);
    // The process's keep-alive agent may still hold a socket from an earlier test: at most one new one.
    expect(raw.connections).toBeLessThanOrEqual(1);
    expect(raw.received.every((r) => /\r\nconnection: keep-alive\r\n/.test(r))).toBe(true);
  });

  it('sends the same bytes on the completion transport, with a base URL ending in a slash, and a key with spaces around it', async () => {
    raw.next = { status: 200, body: COMPLETION_BODY };
    const { sdk, http } = await both({ messages: [{ role: 'user', content: 'Hi' }] }, { transport: 'completion', baseURL: `${base}/`, apiKey: ' sk-spaced ' });
    expect(sdk.sent[0]).toMatch(/^POST \/v1\/completions HTTP\/1\.1\r\n/);
    expect(http.sent).toEqual(sdk.sent);
    expect(http.result).toEqual(sdk.result);
  });

  it('reads a gzip-encoded answer as fetch does', async () => {
    raw.next = { status: 200, headers: { 'content-encoding': 'gzip' }, body: gzipSync(OK_BODY) };
    const { sdk, http } = await both(REQ);
    expect(http.result).toEqual(sdk.result);
  });

  it.each<[string, Canned]>([
    ['a 429 with Retry-After', { status: 429, headers: { 'retry-after': '2' }, body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }) }],
    ['a 400 refusing response_format (the structured ladder steps down, then succeeds)', { status: 400, body: JSON.stringify({ error: { message: "Invalid parameter: 'response_format' is not supported", type: 'invalid_request_error' } }) }],
    ['a 500 with a text body', { status: 500, headers: { 'content-type': 'text/plain' }, body: 'upstream broke' }],
    ['a 503 with an empty JSON object', { status: 503, headers: { 'retry-after-ms': '1500' }, body: '{}' }],
    ['a 200 that is not JSON', { status: 200, body: '{"choices": [' }],
    ['a 200 without content', { status: 200, body: JSON.stringify({ choices: [{ message: {} }] }) }],
  ])('%s: the same bytes and the same error as through the SDK', async (_name, canned) => {
    raw.next = canned;
    if (canned.status === 400) {
      // Only the request asking for a JSON schema is refused: the ladder's next rung is answered.
      raw.next = (request) => (request.includes('"json_schema"') ? canned : { status: 200, body: OK_BODY });
      const { sdk, http } = await both(REQ);
      expect(sdk.sent.length).toBeGreaterThan(1);
      expect(http.sent).toEqual(sdk.sent);
      expect(http.result).toEqual(sdk.result);
      expect(http.result?.structured).toBeDefined();
      return;
    }
    const { sdk, http } = await both(REQ);
    expect(sdk.error).toBeDefined();
    expect(http.sent).toEqual(sdk.sent);
    expect(http.error).toEqual(sdk.error);
  });

  it('a refused connection is the same connection error', async () => {
    const { sdk, http } = await both(REQ, { baseURL: `${await closedUrl()}/v1` });
    expect(sdk.error?.code).toBeDefined();
    expect(http.error).toEqual(sdk.error);
  });
});
