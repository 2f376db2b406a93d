import { describe, expect, it } from 'vitest';
import { eachAtOnce } from './each-at-once.js';

/** A deferred result per item, so a test decides when each item ends. */
function gates(n: number) {
  const started: number[] = [];
  const ends = Array.from({ length: n }, () => {
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    return { done, resolve, reject };
  });
  const fn = (i: number) => {
    started.push(i);
    return ends[i]!.done;
  };
  return { started, ends, fn };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('eachAtOnce', () => {
  it('runs every item, at most atOnce at a time, in order', async () => {
    const g = gates(5);
    const all = eachAtOnce([0, 1, 2, 3, 4], 2, g.fn);
    await tick();
    expect(g.started).toEqual([0, 1]);
    g.ends[1]!.resolve();
    await tick();
    expect(g.started).toEqual([0, 1, 2]);
    for (const e of g.ends) e.resolve();
    await all;
    expect(g.started).toEqual([0, 1, 2, 3, 4]);
  });

  it('after a failure starts nothing new, lets the items in flight finish, then throws the first error', async () => {
    const g = gates(6);
    let settled = false;
    const all = eachAtOnce([0, 1, 2, 3, 4, 5], 3, g.fn).finally(() => (settled = true));
    await tick();
    expect(g.started).toEqual([0, 1, 2]);
    g.ends[0]!.reject(new Error('arm 0 failed'));
    g.ends[1]!.reject(new Error('arm 1 failed too'));
    await tick();
    // Nothing started behind the failure, and the call waits for item 2, still in flight.
    expect(g.started).toEqual([0, 1, 2]);
    expect(settled).toBe(false);
    g.ends[2]!.resolve();
    await expect(all).rejects.toThrow('arm 0 failed');
    expect(g.started).toEqual([0, 1, 2]);
  });

  it('starts nothing once the signal is aborted', async () => {
    const g = gates(4);
    const ac = new AbortController();
    const all = eachAtOnce([0, 1, 2, 3], 1, g.fn, ac.signal);
    await tick();
    ac.abort();
    g.ends[0]!.resolve();
    await all;
    expect(g.started).toEqual([0]);
  });
});
