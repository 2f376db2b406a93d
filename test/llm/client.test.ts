import { describe, expect, it } from 'vitest';
import { reply } from '../../testkit/fake-llm-server.js';
import { fakeLlmClientSuite } from '../helpers/fake-llm-suite.js';
import { createClient, resetStructuredMemory } from '../../llm/index.js';
import { LlmError } from '../../llm/errors.js';
import type { ChatRequest } from '../../llm/types.js';

const SCHEMA = {
  name: 'parley_action',
  schema: {
    type: 'object',
    properties: { action_type: { type: 'string', enum: ['speak', 'leave'] }, argument: { type: 'string' } },
    required: ['action_type', 'argument'],
    additionalProperties: false,
  },
};
const REQ: ChatRequest = { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'Turn #1' }], json: SCHEMA, temperature: 0.7 };
const SPECS = ['openai:gpt-3.5-turbo', 'mistral:open-mixtral-8x7b'] as const;

const fake = fakeLlmClientSuite({
  beforeEach: (server) => {
    resetStructuredMemory();
    server.setDefault(reply.plausible());
  },
});

describe.each(SPECS)('%s through the real SDK', (spec) => {
  it('returns the content, the usage (cached included) and the model', async () => {
    fake.server.enqueue(reply.text('{"action_type":"speak","argument":"hi"}', { usage: { prompt: 120, completion: 9, cached: 64 } }));
    const client = createClient({ spec }, { env: fake.env });
    const res = await client.chat(REQ);
    expect(res.content).toBe('{"action_type":"speak","argument":"hi"}');
    expect(res.usage).toEqual({ prompt: 120, completion: 9, cached: 64 });
    expect(res.model).toBe(spec.split(':')[1]);
    expect(res.retries).toBe(0);
    expect(res.finishReason).toBe('stop');
    expect(fake.server.requests).toHaveLength(1);
    expect(fake.server.requests[0]!.headers.authorization).toBe('Bearer x');
    expect(fake.server.requests[0]!.body.messages).toEqual(REQ.messages);
    expect(fake.server.requests[0]!.body.temperature).toBe(0.7);
  });

  it('assembles a streamed (SSE) reply with its usage', async () => {
    const client = createClient({ spec, params: { stream: true } }, { env: fake.env });
    const res = await client.chat(REQ);
    expect(JSON.parse(res.content)).toEqual({ action_type: 'speak', argument: expect.stringContaining('turn 1') });
    expect(res.usage.prompt).toBeGreaterThan(0);
    expect(res.usage.completion).toBeGreaterThan(0);
    expect(fake.server.requests[0]!.body.stream).toBe(true);
  });

  it('sends sampling params and keeps client settings out of the body', async () => {
    const client = createClient({ spec, params: { temperature: 0.2, top_p: 0.9, seed: 7, timeoutMs: 5000, maxRetries: 1 } }, { env: fake.env });
    await client.chat({ messages: REQ.messages, maxTokens: 50 });
    const body = fake.server.requests[0]!.body;
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 50 });
    expect(body[spec.startsWith('openai') ? 'seed' : 'random_seed']).toBe(7);
    expect(body).not.toHaveProperty('timeoutMs');
    expect(body).not.toHaveProperty('maxRetries');
  });

  it('turns a 200 with an unreadable body into llm/bad_response', async () => {
    fake.server.enqueue(reply.raw('this is not json'));
    const client = createClient({ spec }, { env: fake.env });
    await expect(client.chat(REQ)).rejects.toMatchObject({ name: 'LlmError', code: 'llm/bad_response' });
  });

  it('does not retry a 400 and reports llm/http_error with the status', async () => {
    fake.server.enqueue({ kind: 'status', status: 400, message: 'bad request (fake)' });
    const client = createClient({ spec, params: { retryBaseMs: 1 } }, { env: fake.env });
    const err = (await client.chat(REQ).catch((e) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('llm/http_error');
    expect(err.status).toBe(400);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('names the missing key variable', () => {
    expect(() => createClient({ spec, apiKeyEnv: 'MY_KEY' }, { env: fake.env })).toThrow(/\$MY_KEY/);
    try {
      createClient({ spec }, { env: {} });
      expect.unreachable();
    } catch (err) {
      expect((err as LlmError).code).toBe('llm/no_key');
    }
  });
});

describe('structured output request shape', () => {
  it('openai defaults to a strict JSON schema response_format', async () => {
    await createClient({ spec: 'openai:gpt-4o' }, { env: fake.env }).chat(REQ);
    expect(fake.server.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { ...SCHEMA, strict: true } });
  });

  it('mistral defaults to JSON mode', async () => {
    await createClient({ spec: 'mistral:open-mixtral-8x7b' }, { env: fake.env }).chat(REQ);
    expect(fake.server.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('is configurable per seat: mistral json_schema, openai json_object, off', async () => {
    await createClient({ spec: 'mistral:mistral-large-latest', params: { structuredOutput: 'json_schema' } }, { env: fake.env }).chat(REQ);
    expect(fake.server.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { ...SCHEMA, strict: true } });
    await createClient({ spec: 'openai:llama3', params: { structuredOutput: 'json_object' } }, { env: fake.env }).chat(REQ);
    expect(fake.server.requests[1]!.body.response_format).toEqual({ type: 'json_object' });
    await createClient({ spec: 'openai:llama3', params: { structuredOutput: 'off' } }, { env: fake.env }).chat(REQ);
    expect(fake.server.requests[2]!.body).not.toHaveProperty('response_format');
  });

  it.each(['openai:llama.cpp', 'mistral:m'])('%s falls back to JSON mode for good when the server rejects JSON schemas', async (spec) => {
    const picky = (r: { body: { response_format?: { type?: string } } }) =>
      r.body.response_format?.type === 'json_schema'
        ? ({ kind: 'status', status: 400, message: "response_format type 'json_schema' is not supported" } as const)
        : reply.plausible();
    fake.server.setDefault(picky);
    const client = createClient({ spec, params: { structuredOutput: 'json_schema' } }, { env: fake.env });
    const first = await client.chat(REQ);
    await client.chat(REQ);
    expect(JSON.parse(first.content)).toHaveProperty('action_type');
    expect(fake.server.requests.map((r) => r.body.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('rejects an unknown structured-output mode', () => {
    expect(() => createClient({ spec: 'openai:x', params: { structuredOutput: 'yaml' } }, { env: fake.env })).toThrow(/structuredOutput/);
  });
});

describe('base URLs and keys', () => {
  it('per-seat baseURL and apiKeyEnv override the environment', async () => {
    const client = createClient(
      { spec: 'openai:local', baseURL: fake.server.openaiBaseURL, apiKeyEnv: 'LOCAL_KEY' },
      { env: { LOCAL_KEY: 'k2', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' } },
    );
    await client.chat(REQ);
    expect(fake.server.requests[0]!.headers.authorization).toBe('Bearer k2');
  });

  it('accepts a Mistral base URL written with /v1', async () => {
    const client = createClient({ spec: 'mistral:m', baseURL: `${fake.server.url}/v1/` }, { env: fake.env });
    await client.chat(REQ);
    expect(fake.server.requests[0]!.path).toBe('/v1/chat/completions');
  });

  it('accepts a ModelSpec as well as a PolicyConfig', async () => {
    const client = createClient({ provider: 'openai', model: 'judge-model', params: { temperature: 0 } }, { env: fake.env });
    expect(client.provider).toBe('openai');
    expect(client.model).toBe('judge-model');
    await client.chat({ messages: REQ.messages });
    expect(fake.server.requests[0]!.body).toMatchObject({ model: 'judge-model', temperature: 0 });
  });
});
