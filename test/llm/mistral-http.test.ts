import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LlmError } from '../../llm/errors.js';
import { createMistralClient, sdkVerdictsAsked } from '../../llm/mistral-client.js';
import { defaultOptions } from '../../llm/options.js';
import { resetStructuredMemory } from '../../llm/index.js';
import type { ChatRequest } from '../../llm/types.js';
import { closedUrl, RawHttpServer, type Canned } from '../helpers/raw-http-server.js';

/**
 * The light request path of `mistral:` seats (llm/mistral-http.ts) against the SDK's `chatComplete` it stands
 * in for: on a raw TCP server that records every request's bytes, the same calls through both must send
 * identical bytes and come back as identical results or errors.
 */

const OK_BODY = JSON.stringify({
  id: 'cmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'served-model',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"action_type":"speak","argument":"é ok"}', tool_calls: null }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, prompt_tokens_details: { cached_tokens: 4 } },
});

const server = new RawHttpServer();
let base: string;
beforeAll(async () => {
  base = await server.listen();
});
afterAll(() => server.close());
beforeEach(() => {
  resetStructuredMemory();
  server.received.length = 0;
  server.next = { status: 200, body: OK_BODY };
});

const SCHEMA = { name: 'parley_action', schema: { type: 'object', properties: { action_type: { type: 'string' }, argument: { type: 'string' } }, required: ['action_type', 'argument'], additionalProperties: false } };
const REQ: ChatRequest = { messages: [{ role: 'system', content: 'Be brief — “quoted”, naïve' }, { role: 'user', content: 'Turn #1 \u2028 ok' }], json: SCHEMA, temperature: 0.7, maxTokens: 64 };

type Over = { serverURL?: string; serverPath?: string; apiKey?: string; structuredOutput?: 'json_schema' | 'json_object'; sampling?: Record<string, unknown> };
function client(sdkOnly: boolean, over: Over = {}) {
  const options = { ...defaultOptions('mistral'), maxRetries: 0, ...(over.structuredOutput ? { structuredOutput: over.structuredOutput } : {}) };
  return createMistralClient({ model: 'open-mixtral-8x7b', apiKey: over.apiKey ?? 'k-test', serverURL: over.serverURL ?? `${base}${over.serverPath ?? ''}`, options, sampling: over.sampling ?? { seed: 7, top_p: 0.9, safe_prompt: false }, sdkOnly });
}

/** The same call through the SDK and through the light path: what each sent, and what each returned or threw. */
async function both(req: ChatRequest, over: Over = {}) {
  const run = async (sdkOnly: boolean) => {
    server.received.length = 0;
    // What the structured ladder learned from the first run must not shorten the second.
    resetStructuredMemory();
    try {
      const r = await client(sdkOnly, over).chat(req);
      return { sent: [...server.received], result: { content: r.content, usage: r.usage, model: r.model, finishReason: r.finishReason, structured: r.structured } };
    } catch (err) {
      const e = err as LlmError;
      return { sent: [...server.received], error: { name: e.name, code: e.code, message: e.message, status: e.status, retryAfterMs: e.retryAfterMs } };
    }
  };
  return { sdk: await run(true), http: await run(false) };
}

describe('mistral requests without the SDK (llm/mistral-http.ts)', () => {
  it.each<[string, ChatRequest, Over]>([
    ['a seat turn in JSON mode', REQ, {}],
    ['a seat turn with a JSON schema', REQ, { structuredOutput: 'json_schema' }],
    ['a reformat (an assistant message) with stop words and a key with spaces around it', { messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'not json' }, { role: 'user', content: 'fix it' }], params: { stop: ['\n\n'], n: 1 } }, { apiKey: ' k-spaced ', sampling: {} }],
    ['a server URL with a path and a trailing slash', { messages: [{ role: 'user', content: 'Hi' }] }, { serverPath: '/proxy/', sampling: { presence_penalty: 0.1, frequency_penalty: null } }],
  ])('%s: the SDK bytes exactly (request line, headers in order and case, body) and the same answer', async (_what, req, over) => {
    const { sdk, http } = await both(req, over);
    expect(sdk.error).toBeUndefined();
    expect(sdk.sent).toHaveLength(1);
    expect(sdk.sent[0]).toContain('user-agent: mistral-client-typescript/');
    expect(http.sent).toEqual(sdk.sent);
    expect(http.result).toEqual(sdk.result);
    expect(http.result?.content).toBe('{"action_type":"speak","argument":"é ok"}');
  });

  it('keeps its connection alive across requests', async () => {
    const light = client(false);
    server.connections = 0;
    for (let i = 0; i < 3; i++) expect((await light.chat(REQ)).content).toContain('speak');
    expect(server.received).toHaveLength(3);
    expect(server.connections).toBeLessThanOrEqual(1);
  });

  it.each<[string, Canned]>([
    ['a gzip-encoded answer', { status: 200, headers: { 'content-encoding': 'gzip' }, body: gzipSync(OK_BODY) }],
    ['content as chunks (read by the SDK schema)', { status: 200, body: OK_BODY.replace('"content":"{\\"action_type\\":\\"speak\\",\\"argument\\":\\"é ok\\"}"', '"content":[{"type":"text","text":"chunked"}]') }],
    ['no usage counts, an unknown finish reason', { status: 200, body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 2, model: '', usage: {}, choices: [{ index: 0, message: { content: 'x' }, finish_reason: 'novel' }] }) }],
    ['usage with extra fields', { status: 200, body: OK_BODY.replace('"total_tokens":15', '"total_tokens":15,"prompt_audio_seconds":null,"num_cached_tokens":3') }],
  ])('%s: the same result as through the SDK', async (_what, canned) => {
    server.next = canned;
    const { sdk, http } = await both(REQ);
    expect(sdk.result).toBeDefined();
    expect(http.sent).toEqual(sdk.sent);
    expect(http.result).toEqual(sdk.result);
  });

  it.each<[string, Canned]>([
    ['a 429 with Retry-After', { status: 429, headers: { 'retry-after': '2' }, body: JSON.stringify({ message: 'Rate limit exceeded' }) }],
    ['a 400', { status: 400, body: JSON.stringify({ object: 'error', message: 'bad', type: 'invalid_request_error' }) }],
    ['a 422 in the validation shape', { status: 422, body: JSON.stringify({ detail: [{ loc: ['body', 'model'], msg: 'field required', type: 'missing' }] }) }],
    ['a 422 in another shape', { status: 422, body: JSON.stringify({ detail: 'nope' }) }],
    ['a 500 with a text body', { status: 500, headers: { 'content-type': 'text/plain' }, body: 'upstream broke' }],
    ['a 503 with an empty body', { status: 503, headers: { 'retry-after-ms': '1500' }, body: '' }],
    ['a 502 with an empty body and an empty content type', { status: 502, headers: { 'content-type': '' }, body: '' }],
    ['a 502 with an empty body and no content type', { status: 502, headers: { 'content-type': null }, body: '' }],
    ['a 200 of JSON without a content type', { status: 200, headers: { 'content-type': null }, body: OK_BODY }],
    ['a 422 without a content type', { status: 422, headers: { 'content-type': null }, body: '' }],
    ['a 404 of HTML with an empty body (a content type with a space)', { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '' }],
    ['a 401 of JSON with an empty body', { status: 401, body: '' }],
    ['a 429 with Retry-After 7 and a long body', { status: 429, headers: { 'retry-after': '7' }, body: `{"message":"${'x'.repeat(700)}"}` }],
    ['a 500 with a gzip-encoded body', { status: 500, headers: { 'content-encoding': 'gzip' }, body: gzipSync('{"message":"zipped"}') }],
    ['a 599 with Retry-After 0', { status: 599, headers: { 'retry-after': '0', 'content-type': 'text/plain' }, body: 'odd' }],
    ['a 200 that is not JSON', { status: 200, body: '{"choices": [' }],
    ['a 200 of text', { status: 200, headers: { 'content-type': 'text/plain' }, body: 'hello' }],
    ['a 201', { status: 201, body: OK_BODY }],
    ['a 200 failing validation', { status: 200, body: '{"id":1}' }],
    ['a 200 without content', { status: 200, body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 2, model: 'm', usage: {}, choices: [{ index: 0, message: {}, finish_reason: 'stop' }] }) }],
    ['a 200 without choices', { status: 200, body: JSON.stringify({ id: 'c', object: 'chat.completion', created: 2, model: 'm', usage: {}, choices: [] }) }],
  ])('%s: the same bytes and the same error as through the SDK', async (_what, canned) => {
    server.next = canned;
    const { sdk, http } = await both(REQ);
    expect(sdk.error).toBeDefined();
    expect(http.sent).toEqual(sdk.sent);
    expect(http.error).toEqual(sdk.error);
  });

  it("a 4XX or 5XX is judged without the SDK's matchers (a 422 still goes to them)", async () => {
    const light = client(false, { sampling: {} });
    const asked = sdkVerdictsAsked();
    const failures: Canned[] = [{ status: 429, headers: { 'retry-after': '1' }, body: '{"message":"slow down"}' }, { status: 500, body: '' }, { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no' }];
    for (const canned of failures) {
      server.next = canned;
      await expect(light.chat(REQ)).rejects.toMatchObject({ status: canned.status });
    }
    expect(sdkVerdictsAsked()).toBe(asked);
    server.next = { status: 422, body: JSON.stringify({ detail: 'nope' }) };
    await expect(light.chat(REQ)).rejects.toThrow(/mistral:open-mixtral-8x7b: /);
    expect(sdkVerdictsAsked()).toBe(asked + 1);
  });

  it('warns of a deprecated model as the SDK does', async () => {
    server.next = { status: 200, headers: { 'x-model-deprecation-timestamp': '2027-01-01' }, body: OK_BODY };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await client(true).chat(REQ);
      // The SDK's hook warns once the body is read again, after the call returned.
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
      await client(false).chat(REQ);
      expect(warn).toHaveBeenCalledTimes(2);
      expect(warn.mock.calls[1]).toEqual(warn.mock.calls[0]);
    } finally {
      warn.mockRestore();
    }
  });

  it('a refused connection is the same connection error', async () => {
    const { sdk, http } = await both(REQ, { serverURL: await closedUrl() });
    expect(sdk.error?.code).toBe('llm/connection');
    expect(http.error).toEqual(sdk.error);
  });
});
