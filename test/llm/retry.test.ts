import { describe, expect, it } from 'vitest';
import { reply } from '../../testkit/fake-llm-server.js';
import { fakeLlmClientSuite } from '../helpers/fake-llm-suite.js';
import { ownRequests } from '../helpers/own-requests.js';
import { LlmError } from '../../llm/errors.js';
import { createClient } from '../../llm/index.js';
import { abortableSleep, backoffDelay, parseRetryAfter, withRetries } from '../../llm/retry.js';

const headers = (h: Record<string, string>) => new Headers(h);
/** How long a test waits for its request to reach the server: it can take over a second on a loaded machine. */
const ARRIVAL_MS = 10_000;

describe('parseRetryAfter', () => {
  it('reads delta-seconds, fractional seconds, retry-after-ms and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '1' }))).toBe(1000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.25' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '40', 'retry-after': '9' }))).toBe(40);
    const now = Date.parse('2024-05-01T10:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 May 2024 10:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 May 2024 09:00:00 GMT' }), now)).toBe(0);
  });
  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('backoff', () => {
  const policy = { maxRetries: 5, baseMs: 100, maxMs: 1000, maxRetryAfterMs: 5000 };
  it('grows exponentially under full jitter and is capped', () => {
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 1)).toBe(800);
    expect(backoffDelay(8, policy, () => 1)).toBe(1000);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(400);
    expect(backoffDelay(3, policy, () => 0)).toBe(1);
  });
  it('waits Retry-After (plus bounded jitter) instead of the backoff, and stops at maxRetries', async () => {
    const waits: number[] = [];
    let calls = 0;
    const err = await withRetries(
      async () => {
        calls++;
        throw new LlmError('llm/rate_limited', '429', { status: 429, retryAfterMs: 2000 });
      },
      { ...policy, maxRetries: 2 },
      undefined,
      { sleep: async (ms) => void waits.push(ms), random: () => 0.5 },
    ).catch((e) => e);
    expect(calls).toBe(3);
    expect(waits).toEqual([2050, 2050]);
    expect((err as LlmError).retries).toBe(2);
  });
  it('gives up at once when Retry-After exceeds the cap', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls++;
        throw new LlmError('llm/rate_limited', '429', { status: 429, retryAfterMs: 60_000 });
      }, policy, undefined, { sleep: async () => {} }),
    ).rejects.toMatchObject({ code: 'llm/rate_limited' });
    expect(calls).toBe(1);
  });
});

describe.each(['openai:gpt-3.5-turbo', 'mistral:open-mixtral-8x7b'])('%s retries against the fake server', (spec) => {
  const fake = fakeLlmClientSuite();

  it('honours 429 Retry-After: 1 and counts the retry', async () => {
    const { msg, requests } = ownRequests(fake.server, '429', [reply.rateLimited('1')]);
    const waits: number[] = [];
    const sleep = (ms: number, signal?: AbortSignal) => (waits.push(ms), abortableSleep(ms, signal));
    const res = await createClient({ spec }, { env: fake.env, retryDeps: { sleep } }).chat(msg);
    expect(res.retries).toBe(1);
    expect(requests()).toHaveLength(2);
    // The retry waits Retry-After (1 s plus at most 250 ms of jitter), not a longer backoff: the wait the client
    // chose. Not the wall time between the two requests: a loaded machine stretches that (Mistral's light path
    // no longer loads the SDK's error matching for a 429: llm/mistral-http-error.ts).
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waits[0]).toBeLessThanOrEqual(1250);
    // And it did wait: the server saw the second request at least that long after the first.
    const gap = requests()[1]!.receivedAt - requests()[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(990);
    expect(res.latencyMs).toBeGreaterThanOrEqual(990);
  });

  it('retries 500s with backoff and counts them', async () => {
    const { msg, requests } = ownRequests(fake.server, '5xx', [reply.serverError(500), reply.serverError(503)]);
    const res = await createClient({ spec, params: { retryBaseMs: 5 } }, { env: fake.env }).chat(msg);
    expect(res.retries).toBe(2);
    expect(requests()).toHaveLength(3);
  });

  it('fails with llm/rate_limited after bounded attempts, retries counted on the error', async () => {
    const { msg, requests } = ownRequests(fake.server, 'rate limited', [reply.rateLimited('0'), reply.rateLimited('0'), reply.rateLimited('0')]);
    const err = (await createClient({ spec, params: { maxRetries: 2, retryBaseMs: 1 } }, { env: fake.env }).chat(msg).catch((e) => e)) as LlmError;
    expect(err.code).toBe('llm/rate_limited');
    expect(err.status).toBe(429);
    expect(err.retries).toBe(2);
    expect(requests()).toHaveLength(3);
  });

  it('times out a hanging server per attempt, retries, then fails with llm/timeout', async () => {
    const { msg, requests } = ownRequests(fake.server, 'hanging', [], reply.hang());
    // 1 s: each attempt must reach the server before its timeout ends it; 150 ms bet that this process (the
    // server's too) never stalls that long between sending a request and reading it, as a busy CI worker does.
    const err = (await createClient({ spec, params: { timeoutMs: 1_000, maxRetries: 1, retryBaseMs: 1 } }, { env: fake.env }).chat(msg).catch((e) => e)) as LlmError;
    expect(err.code).toBe('llm/timeout');
    expect(err.retries).toBe(1);
    // Both attempts reached the server; it may read the second after its client gave up.
    await expect.poll(() => requests().length, { timeout: ARRIVAL_MS }).toBe(2);
  });

  it('recovers when a slow reply is followed by a fast one', async () => {
    // The timeout leaves a loaded machine room to answer the fast reply in time (a retry more would fail).
    const { msg } = ownRequests(fake.server, 'slow then fast', [reply.slow(10_000, 'late'), reply.text('{"ok":true}')]);
    const res = await createClient({ spec, params: { timeoutMs: 1_000, retryBaseMs: 1 } }, { env: fake.env }).chat(msg);
    expect(res.content).toBe('{"ok":true}');
    expect(res.retries).toBe(1);
  });

  it('stops with llm/aborted when the caller aborts', async () => {
    const { msg, requests } = ownRequests(fake.server, 'caller abort', [], reply.hang());
    const ac = new AbortController();
    const pending = createClient({ spec }, { env: fake.env }).chat(msg, ac.signal);
    await expect.poll(() => requests().length, { timeout: ARRIVAL_MS }).toBe(1);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'llm/aborted' });
  });
});
