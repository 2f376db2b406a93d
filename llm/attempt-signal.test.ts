import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { attemptSignal, fetchWithCallSignal, withCallSignal } from './attempt-signal.js';

const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('attemptSignal', () => {
  it('fires at its timeout and says so', async () => {
    const a = attemptSignal(10);
    await aborted(a.signal);
    expect(a.timedOut()).toBe(true);
    expect((a.signal.reason as DOMException).name).toBe('TimeoutError');
  });
  it("follows the caller's abort, with the caller's reason, and is then not a timeout", () => {
    const caller = new AbortController();
    const a = attemptSignal(60_000, caller.signal);
    caller.abort('turn deadline');
    expect(a.signal.aborted).toBe(true);
    expect(a.signal.reason).toBe('turn deadline');
    expect(a.timedOut()).toBe(false);
    a.dispose();
  });
  it('starts aborted when the caller already is', () => {
    const caller = new AbortController();
    caller.abort('gone');
    expect(attemptSignal(60_000, caller.signal).signal.aborted).toBe(true);
  });
  it("once disposed, neither its timer nor the caller's abort fires it", () => {
    vi.useFakeTimers();
    try {
      const caller = new AbortController();
      const a = attemptSignal(5, caller.signal);
      a.dispose();
      vi.advanceTimersByTime(1_000);
      caller.abort();
      expect(a.signal.aborted).toBe(false);
      expect(a.timedOut()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('attemptSignal under garbage collection', () => {
  // What it replaces lost its abort here: on Node 20, `AbortSignal.any([AbortSignal.timeout(ms)])` with a
  // listener never fired once a collection ran in between (0 of 20 in a standalone check).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const firesUnderGc = async (make: () => AbortSignal, trigger?: () => void) => {
    const timer = setInterval(gc, 2);
    try {
      const fired = new Promise<boolean>((resolve) => make().addEventListener('abort', () => resolve(true), { once: true }));
      gc();
      trigger?.();
      return await Promise.race([fired, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000))]);
    } finally {
      clearInterval(timer);
    }
  };
  it('still fires at its timeout', async () => {
    for (let i = 0; i < 5; i++) expect(await firesUnderGc(() => attemptSignal(20).signal)).toBe(true);
  });
  it("still follows the caller's abort", async () => {
    for (let i = 0; i < 5; i++) {
      const caller = new AbortController();
      // `firesUnderGc` collects between attaching the listener and this abort.
      expect(await firesUnderGc(() => attemptSignal(60_000, caller.signal).signal, () => caller.abort())).toBe(true);
    }
  });
});

describe('fetchWithCallSignal', () => {
  it("hands fetch the signal of the call it runs in, and none outside one", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (_input: unknown, init?: RequestInit) => {
      seen.push(init?.signal ?? undefined);
      return new Response('ok');
    }) as typeof fetch;
    try {
      const call = new AbortController();
      await withCallSignal(call.signal, async () => {
        await Promise.resolve();
        await fetchWithCallSignal('http://127.0.0.1:9/x', { method: 'POST' });
      });
      await fetchWithCallSignal('http://127.0.0.1:9/y');
      expect(seen).toEqual([call.signal, undefined]);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
