import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import type { LlmError } from '../../llm/errors.js';
import { createClient, mistralBatchApi } from '../../llm/index.js';

/**
 * A timeout or an abort must end a request even when the garbage collector runs while it hangs. On Node 20
 * (undici 6), signals handed from `AbortSignal.timeout`/`any` through a `Request` to `fetch` are linked by
 * weak references; a collection during the wait dropped a link and the request never ended (a CI run lost
 * a Mistral seat's call that way). Collections are forced every few milliseconds here to make it certain.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MSG = { messages: [{ role: 'user' as const, content: 'Turn #0' }] };

/** Runs `fn` while collecting garbage every 5 ms. */
async function underGc<T>(fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(gc, 5);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

describe.each(['openai:gpt-3.5-turbo', 'mistral:open-mixtral-8x7b'])('%s: timeouts and aborts survive garbage collection', (spec) => {
  let server: FakeLlmServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startFakeLlmServer();
    env = server.env();
    // Load the SDK before the clock matters.
    server.enqueue(reply.text('{"ok":true}'));
    await createClient({ spec }, { env }).chat(MSG);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('ends every hanging attempt at its timeout', async () => {
    server.enqueue(reply.hang(), reply.hang(), reply.hang());
    // 400 ms: each attempt must reach the server before its timeout ends it, over a new connection, while
    // collections run every 5 ms (a client that aborts on time had 100 ms lose the third one in flight).
    const client = createClient({ spec, params: { timeoutMs: 400, maxRetries: 2, retryBaseMs: 1 } }, { env });
    const err = (await underGc(() => client.chat(MSG).catch((e) => e))) as LlmError;
    expect(err.code).toBe('llm/timeout');
    expect(err.retries).toBe(2);
    expect(server.requests).toHaveLength(3);
  }, 10_000);

  it('ends a hanging streamed attempt at its timeout', async () => {
    server.enqueue(reply.hang());
    const client = createClient({ spec, params: { timeoutMs: 100, maxRetries: 0, stream: true } }, { env });
    const err = (await underGc(() => client.chat(MSG).catch((e) => e))) as LlmError;
    expect(err.code).toBe('llm/timeout');
  }, 10_000);

  it("ends a hanging attempt at the caller's abort", async () => {
    server.enqueue(reply.hang());
    const ac = new AbortController();
    const client = createClient({ spec, params: { timeoutMs: 60_000 } }, { env });
    const err = (await underGc(async () => {
      const pending = client.chat(MSG, ac.signal).catch((e) => e);
      await expect.poll(() => server.requests.length).toBe(1);
      // A full collection between the request and the abort, besides the periodic ones.
      gc();
      ac.abort();
      return pending;
    })) as LlmError;
    expect(err.code).toBe('llm/aborted');
  }, 10_000);

  it('ends a hanging attempt at its timeout while a caller signal is attached', async () => {
    server.enqueue(reply.hang());
    const ac = new AbortController();
    const client = createClient({ spec, params: { timeoutMs: 100, maxRetries: 0 } }, { env });
    const err = (await underGc(() => client.chat(MSG, ac.signal).catch((e) => e))) as LlmError;
    expect(err.code).toBe('llm/timeout');
  }, 10_000);
});

describe('Mistral batch jobs: a poll to a server that never answers ends at its timeout under garbage collection', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const settings = { apiKey: 'x', timeoutMs: 100, model: 'm', sampling: {}, structured: 'json_object' as const };

  it('retrieve', async () => {
    const err = (await underGc(() => mistralBatchApi({ ...settings, baseURL: url }).retrieve('job-1').catch((e) => e))) as LlmError;
    expect(err.code).toBe('llm/timeout');
  }, 10_000);
});
