import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { parley, tempDir, within, type CliProcess } from './helpers/processes.js';
import { startRedis, type TestRedis } from './helpers/redis.js';

/** Most requests that any `windowMs`-long window of the sorted arrival times holds. */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (j < t.length && t[j]! < t[i]! + windowMs) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

/**
 * Issue 15, Contract 3: with `--rpm 60` and two workers (each with several agent processes) calling the
 * fake OpenAI-compatible server, no 60-second window of the server's request log holds more than 60
 * requests. Per-process limits would let every agent process send 60 a minute; the limit holds only
 * because all of them take their slots from Redis. Runs a little over a minute by necessity: the 61st
 * request is the first one the limit has to hold back.
 */
describe('--rpm shared through Redis by two workers', () => {
  const tmp = tempDir('queue-rpm');
  let redis: TestRedis;
  let llm: FakeLlmServer;
  const procs: CliProcess[] = [];
  beforeAll(async () => {
    [redis, llm] = await Promise.all([startRedis(), startFakeLlmServer()]);
  });
  afterAll(async () => {
    for (const p of procs) p.kill();
    await Promise.all(procs.map((p) => p.exited));
    await Promise.all([redis?.stop(), llm?.close()]);
    tmp.remove();
  });

  it('keeps every 60 s window of the server log at 60 requests or fewer', async () => {
    const env = { ...process.env, ...llm.env() };
    const start = (args: string[]) => {
      const p = parley(args, { env });
      procs.push(p);
      return p;
    };
    const workers = [start(['worker', '--queue', redis.url]), start(['worker', '--queue', redis.url])];
    const coordinator = start(['run', '--queue', redis.url, '--scenarios', 'builtin', '--modes', 'agents', '--limit', '16',
      '--agent1', 'openai:fake-model', '--agent2', 'openai:fake-model', '--rpm', '60', '--out', join(tmp.path, 'run')]);
    // 75 requests span more than a minute at 60 a minute: the window check below then means something.
    await within(vi.waitFor(() => expect(llm.requests.length).toBeGreaterThanOrEqual(75), { timeout: 110_000, interval: 100 }), 115_000, '75 requests', [coordinator, ...workers]);
    const times = llm.requests.map((r) => r.receivedAt);
    expect(busiestWindow(times, 60_000)).toBeLessThanOrEqual(60);
    // The first minute was used (the limit is not simply slower than asked), and both workers sent requests.
    expect(busiestWindow(times, 60_000)).toBeGreaterThanOrEqual(50);
    const served = workers.map((w) => w.stdout.some((l) => l.startsWith('worker ') && l.includes('agent processes')));
    expect(served).toEqual([true, true]);
  }, 130_000);

  it('busiestWindow counts a half-open window', () => {
    expect(busiestWindow([0, 59_999, 60_000], 60_000)).toBe(2);
    expect(busiestWindow([0, 1, 2], 60_000)).toBe(3);
  });
});
