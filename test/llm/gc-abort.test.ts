import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import type { LlmError } from '../../llm/errors.js';
import { createClient, mistralBatchApi } from '../../llm/index.js';
import { ownRequests } from '../helpers/own-requests.js';

/**
 * A timeout or an abort must end a request even when the garbage collector runs while it hangs. On Node 20
 * (undici 6), signals handed from `AbortSignal.timeout`/`any` through a `Request` to `fetch` are linked by
 * weak references; a collection during the wait dropped a link and the request never ended (a CI run lost
 * a Mistral seat's call that way). Collections are forced every few milliseconds here to make it certain.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MSG = { messages: [{ role: 'user' as const, content: 'Turn #0' }] };
/**
 * A test's time: a forced collection every 5 ms leaves a loaded machine's event loop little time (three
 * copies of this file on two busy cores: a 400 ms attempt lasted 1.5-2.5 s, the Mistral case of three 5-7 s,
 * over the 10 s these tests had); a request that hangs for good still fails the test.
 */
const TEST_MS = 30_000;
/** How long a test waits for its request to reach the server (up to 3.4 s under that load). */
const ARRIVAL_MS = 10_000;

/**
 * Runs `fn` while collecting garbage every 5 ms (only while `when()` holds, if given); `fn` can read how many
 * collections ran so far.
 */
async function underGc<T>(fn: (collections: () => number) => Promise<T>, when?: () => boolean): Promise<T> {
  let collections = 0;
  const timer = setInterval(() => {
    if (when && !when()) return;
    gc();
    collections += 1;
  }, 5);
  try {
    return await fn(() => collections);
  } finally {
    clearInterval(timer);
  }
}

/**
 * While one of the server's requests hangs there. Collecting only then, not while a request is on its way,
 * keeps the collections where the bug was (a hang) without slowing the way there: back-to-back full
 * collections of the Mistral SDK's heap on a loaded machine took a request over 3 s (once over 10 s) to arrive.
 */
const whileHanging = (server: FakeLlmServer) => () => server.hanging > 0;

/**
 * The first `n` ticks of each hang: as `whileHanging`, counted afresh when another request reaches the server
 * (each attempt of a retried call hangs on its own). One collection while a hang holds the weakly linked
 * signals is what the bug needs; collecting on for the rest of a 400 ms attempt spent the CPU of ~80 full
 * collections an attempt without adding a case.
 */
function firstTicksOfEachHang(server: FakeLlmServer, n = 4): () => boolean {
  let arrived = -1;
  let left = 0;
  return () => {
    if (server.hanging === 0) return false;
    if (server.requests.length !== arrived) [arrived, left] = [server.requests.length, n];
    if (left === 0) return false;
    left -= 1;
    return true;
  };
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

  it('ends every hanging attempt at its timeout', async () => {
    const { msg, requests } = ownRequests(server, 'every attempt', [], reply.hang());
    // Each attempt must reach the server before its timeout ends it, over a new connection. Collections run
    // while a request hangs there, not while one is on its way: back-to-back full collections of the Mistral
    // SDK's heap on a loaded machine took an attempt over 3 s to arrive, past its 400 ms (and 1 s) timeout.
    const client = createClient({ spec, params: { timeoutMs: 400, maxRetries: 2, retryBaseMs: 1 } }, { env });
    let collections = 0;
    const err = (await underGc((count) => client.chat(msg).catch((e) => e).finally(() => (collections = count())), firstTicksOfEachHang(server))) as LlmError;
    expect(err.code).toBe('llm/timeout');
    expect(err.retries).toBe(2);
    expect(collections, 'collections while an attempt hung').toBeGreaterThan(0);
    // Every attempt reached the server (it hung there); the server may read the last one after its client gave up.
    await expect.poll(() => requests().length, { timeout: ARRIVAL_MS }).toBe(3);
  }, TEST_MS);

  it('ends a hanging streamed attempt at its timeout', async () => {
    const { msg } = ownRequests(server, 'streamed', [], reply.hang());
    const client = createClient({ spec, params: { timeoutMs: 100, maxRetries: 0, stream: true } }, { env });
    const err = (await underGc(() => client.chat(msg).catch((e) => e))) as LlmError;
    expect(err.code).toBe('llm/timeout');
  }, TEST_MS);

  it("ends a hanging attempt at the caller's abort", async () => {
    const { msg, requests } = ownRequests(server, 'caller abort', [], reply.hang());
    const ac = new AbortController();
    const client = createClient({ spec, params: { timeoutMs: 60_000 } }, { env });
    const err = (await underGc(async (collections) => {
      const pending = client.chat(msg, ac.signal).catch((e) => e);
      await expect.poll(() => requests().length, { timeout: ARRIVAL_MS }).toBe(1);
      // Periodic collections while it hangs, then a full one between them and the abort.
      const atArrival = collections();
      await expect.poll(collections, { timeout: ARRIVAL_MS, interval: 5 }).toBeGreaterThanOrEqual(atArrival + 3);
      gc();
      ac.abort();
      return pending;
    }, whileHanging(server))) as LlmError;
    expect(err.code).toBe('llm/aborted');
  }, TEST_MS);

  it('ends a hanging attempt at its timeout while a caller signal is attached', async () => {
    const { msg } = ownRequests(server, 'signal attached', [], reply.hang());
    const ac = new AbortController();
    const client = createClient({ spec, params: { timeoutMs: 100, maxRetries: 0 } }, { env });
    const err = (await underGc(() => client.chat(msg, ac.signal).catch((e) => e))) as LlmError;
    expect(err.code).toBe('llm/timeout');
  }, TEST_MS);
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
  }, TEST_MS);
});
