import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { reply, type FakeReply } from '../../testkit/fake-llm-server.js';
import { fakeLlmClientSuite } from '../helpers/fake-llm-suite.js';
import { createClient } from '../../llm/index.js';
import { LlmError } from '../../llm/errors.js';
import { loadMistral, loadMistralChat } from '../../llm/mistral-sdk.js';

/**
 * The `mistral:` seat's client uses the SDK's standalone chat functions on a `MistralCore`
 * (llm/mistral-sdk.ts) instead of the whole SDK's `Mistral.chat`: the same requests must go out, and the
 * same errors come back (a Result where `chat` threw), for every kind of failure.
 */
const fake = fakeLlmClientSuite({ beforeEach: (server) => server.setDefault(reply.plausible()) });

const BODY = {
  model: 'open-mixtral-8x7b',
  messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'Turn #1 — “quoted” ünïcode' }],
  temperature: 0.7,
  topP: 0.9,
  maxTokens: 64,
  randomSeed: 7,
  safePrompt: false,
  responseFormat: { type: 'json_schema', jsonSchema: { name: 'a', schemaDefinition: { type: 'object' }, strict: true } },
};
const options = (serverURL = fake.server.url, timeoutMs = 5_000) => ({ apiKey: 'k-test', serverURL, timeoutMs, retryConfig: { strategy: 'none' as const } });
const requestOptions = (signal?: AbortSignal) => ({ retries: { strategy: 'none' as const }, ...(signal ? { signal } : {}) });

/** What the server received for one call: path, headers and the body (bytes compared through its length too). */
async function received(call: () => Promise<unknown>) {
  const before = fake.server.requests.length;
  await call();
  const r = fake.server.requests[before]!;
  return { path: r.path, headers: r.headers, body: JSON.stringify(r.body) };
}

describe('mistral: standalone chat functions against the whole SDK', () => {
  it.each([false, true])('send the same request (stream: %s)', async (stream) => {
    const whole = await loadMistral(options());
    const light = await loadMistralChat(options());
    const body = { ...BODY, ...(stream ? { stream: true } : {}) };
    const drain = async (s: AsyncIterable<unknown>) => {
      for await (const _ of s);
    };
    const a = await received(async () => (stream ? drain(await whole.chat.stream(body as never, requestOptions())) : whole.chat.complete(body as never, requestOptions())));
    const b = await received(async () => {
      const r = stream ? await light.stream(body as never, requestOptions()) : await light.complete(body as never, requestOptions());
      if (!r.ok) throw r.error;
      if (stream) await drain(r.value as AsyncIterable<unknown>);
    });
    expect(b).toEqual(a);
    expect(b.headers['content-length']).toBe(a.headers['content-length']);
    expect(b.body).toContain('"random_seed":7');
  });

  const cases: Array<[string, FakeReply | 'refused' | 'abort' | 'timeout', string]> = [
    ['HTTP 400', { kind: 'status', status: 400, message: 'bad' }, 'llm/http_error'],
    ['HTTP 503', reply.serverError(503), 'llm/http_error'],
    ['429', reply.rateLimited('0'), 'llm/rate_limited'],
    ['an unreadable body', reply.raw('not json at all'), 'llm/bad_response'],
    ['a reply failing validation', reply.raw('{"id":1}'), 'llm/bad_response'],
    ['connection refused', 'refused', 'llm/connection'],
    ['a timeout', 'timeout', 'llm/timeout'],
    ['an abort', 'abort', 'llm/aborted'],
  ];
  it.each(cases)('map %s as the whole SDK did', async (_what, how, code) => {
    const url = how === 'refused' ? await closedPort() : fake.server.url;
    const timeoutMs = how === 'timeout' ? 300 : 5_000;
    const script = () => {
      if (typeof how === 'object') fake.server.enqueue(how);
      else if (how !== 'refused') fake.server.enqueue(reply.hang());
    };
    const signal = () => (how === 'abort' ? abortOnArrival() : undefined);
    script();
    const thrown = await (await loadMistral(options(url, timeoutMs))).chat.complete(BODY as never, requestOptions(signal())).then(() => null, (e: unknown) => e);
    script();
    // A body that is not JSON is not a Result: the function rejects, as `chat` did (JSON.parse's own error).
    const error = await (await loadMistralChat(options(url, timeoutMs))).complete(BODY as never, requestOptions(signal())).then(
      (r) => (r.ok ? null : r.error),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.constructor.name).toBe((thrown as Error).constructor.name);
    expect(error!.message).toBe((thrown as Error).message);
    // And through the seat's client, one attempt: the LlmError code the seat sees.
    script();
    const client = createClient({ spec: 'mistral:open-mixtral-8x7b', baseURL: url, params: { maxRetries: 0, timeoutMs } }, { env: fake.env });
    const err = (await client.chat({ messages: [{ role: 'user', content: 'hi' }] }, signal()).catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe(code);
  });
});

/** A signal aborted once the server has received the next request (so that the call is under way). */
function abortOnArrival(): AbortSignal {
  const ac = new AbortController();
  const seen = fake.server.requestCount;
  const check = setInterval(() => {
    if (fake.server.requestCount > seen) {
      clearInterval(check);
      ac.abort();
    }
  }, 5);
  return ac.signal;
}

/** A local port nothing listens on: bound, then closed. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
