import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { parley, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { RATE_WINDOW_ENV } from '../../llm/shared-limit.js';

/** The limit's window, shortened from a minute (the same mechanism, the same guarantee, in seconds). */
const WINDOW_S = 4;
const RPM = 10;

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
 * Issue 15, Contract 3: with `--rpm N` and two workers (each with several agent processes) calling the
 * fake OpenAI-compatible server, no window of the server's request log holds more than N requests.
 * Per-process limits would let every agent process send N a window; the limit holds only because all of
 * them take their slots from Redis. The window is shortened from 60 s to a few seconds
 * (PARLEY_RATE_WINDOW_SECONDS, issue 21), so the property is proved in seconds, not minutes.
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

  it(`keeps every ${WINDOW_S} s window of the server log at ${RPM} requests or fewer`, async () => {
    const env = { ...process.env, ...llm.env(), [RATE_WINDOW_ENV]: String(WINDOW_S) };
    const start = (args: string[]) => {
      const p = parley(args, { env });
      procs.push(p);
      return p;
    };
    // Two episodes at a time each, multiplexed: two agent processes a worker (one seat a process started six,
    // ~0.15 CPU-s each), four in all, every one calling the server: limits of their own would let 4 × RPM a window through.
    const WORKER = ['worker', '--queue', redis.url, '--concurrency', '2', '--multiplex'];
    const workers = [start(WORKER), start(WORKER)];
    const coordinator = start(['run', '--queue', redis.url, '--scenarios', 'builtin', '--modes', 'agents', '--limit', '16',
      '--agent1', 'openai:fake-model', '--agent2', 'openai:fake-model', '--rpm', String(RPM), '--out', join(tmp.path, 'run')]);
    // 2.5 windows' worth of requests: the check below then covers windows the limit had to hold back.
    const wanted = Math.round(RPM * 2.5);
    await within(vi.waitFor(() => expect(llm.requests.length).toBeGreaterThanOrEqual(wanted), { timeout: 100_000, interval: 50 }), 105_000, `${wanted} requests`, [coordinator, ...workers]);
    const times = llm.requests.map((r) => r.receivedAt);
    expect(busiestWindow(times, WINDOW_S * 1000)).toBeLessThanOrEqual(RPM);
    // The first window was used (the limit is not simply slower than asked), and both workers sent requests.
    expect(busiestWindow(times, WINDOW_S * 1000)).toBeGreaterThanOrEqual(RPM - 2);
    const served = workers.map((w) => w.stdout.some((l) => l.startsWith('worker ') && l.includes('agent processes')));
    expect(served).toEqual([true, true]);
  }, 130_000);

  it('busiestWindow counts a half-open window', () => {
    expect(busiestWindow([0, 59_999, 60_000], 60_000)).toBe(2);
    expect(busiestWindow([0, 1, 2], 60_000)).toBe(3);
  });
});
