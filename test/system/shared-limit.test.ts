import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountKey, sharedRateLimitFor, SHARED_LIMIT_ENV } from '../../llm/shared-limit.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';

/**
 * The Redis-backed provider gate (llm/shared-limit.ts) against a real redis-server: the request slots,
 * the token budget and the shared 429 pause. Gates with different keys stand for different processes
 * of one account only through Redis (same key, separate limiter objects via distinct limit values).
 */
describe('shared rate limit through Redis', () => {
  let redis: TestRedis;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    redis = await startRedis();
    env = { [SHARED_LIMIT_ENV]: redis.url };
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('is off without the Redis variable or without limits', () => {
    expect(sharedRateLimitFor('k', { rpm: 10, tpm: 0 }, {})).toBeNull();
    expect(sharedRateLimitFor('k', { rpm: 0, tpm: 0 }, env)).toBeNull();
  });

  it('admits rpm requests, then holds the next one until a slot is free', async () => {
    const gate = await sharedRateLimitFor(accountKey('openai', 'http://a', 'key-1'), { rpm: 3, tpm: 0 }, env)!;
    const admitted = await Promise.all([gate.admit(10), gate.admit(10), gate.admit(10)]);
    // The fourth waits (a minute after the first comes back): cut short by its caller's signal.
    await expect(gate.admit(10, AbortSignal.timeout(300))).rejects.toMatchObject({ code: 'llm/aborted' });
    await Promise.all(admitted.map((a) => a.done()));
  });

  it('shares the token budget and corrects it by the real usage', async () => {
    const key = accountKey('openai', 'http://b', 'key-2');
    const a = await sharedRateLimitFor(key, { rpm: 0, tpm: 100 }, env)!;
    await a.admit(80);
    await expect(a.admit(80, AbortSignal.timeout(300))).rejects.toMatchObject({ code: 'llm/aborted' });
    // The first request used 10 tokens, not 80: the 70 come back and the next one fits.
    await a.settle(80, 10);
    await a.admit(80, AbortSignal.timeout(2_000));
  });

  it('a 429 seen by one process pauses the others of the account', async () => {
    const key = accountKey('mistral', 'default', 'key-3');
    const one = await sharedRateLimitFor(key, { rpm: 100, tpm: 0 }, env)!;
    const other = await sharedRateLimitFor(key, { rpm: 0, tpm: 1_000_000 }, env)!;
    await one.pause(1_500);
    const t0 = Date.now();
    await other.admit(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    // A different key (another account) is not paused.
    const third = await sharedRateLimitFor(accountKey('mistral', 'default', 'key-4'), { rpm: 0, tpm: 1_000 }, env)!;
    await third.admit(1, AbortSignal.timeout(500));
  });
});
