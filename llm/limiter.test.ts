import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestLimiter } from './limiter.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('RequestLimiter', () => {
  it('keeps at most maxConcurrent tasks in flight', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 2, rpm: 0 });
    let active = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      limiter.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise<void>((r) => releases.push(r));
        active--;
      });
    const all = Promise.all([task(), task(), task(), task()]);
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    expect(limiter.inFlight).toBe(2);
    releases.shift()!();
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    while (releases.length) {
      releases.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    await vi.waitFor(() => expect(limiter.inFlight).toBe(0));
    await all;
    expect(peak).toBe(2);
  });

  it('starts at most rpm requests in a rolling minute', async () => {
    vi.useFakeTimers();
    const limiter = new RequestLimiter({ maxConcurrent: 10, rpm: 2 });
    const started: number[] = [];
    const t0 = Date.now();
    const runs = [0, 1, 2].map(() => limiter.run(async () => void started.push(Date.now() - t0)));
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(60_000);
    await Promise.all(runs);
    expect(started).toHaveLength(3);
    expect(started[2]).toBeGreaterThanOrEqual(60_000);
  });

  it('releases a waiting slot when the caller aborts', async () => {
    const limiter = new RequestLimiter({ maxConcurrent: 1, rpm: 0 });
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const ac = new AbortController();
    const second = limiter.run(async () => 'ran', ac.signal);
    ac.abort();
    await expect(second).rejects.toMatchObject({ code: 'llm/aborted' });
    release();
    await first;
    expect(limiter.inFlight).toBe(0);
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });
});
