import { describe, expect, it, vi } from 'vitest';
import { Lobby } from './lobby.js';

describe('the waiting room', () => {
  it('pairs two present participants at once, in arrival order', () => {
    let now = 0;
    const pairs: string[][] = [];
    const lobby = new Lobby({ waitMs: 5000, presenceMs: 30_000, now: () => now, pair: (ids) => pairs.push(ids), fallback: () => {} });
    lobby.enter('a');
    expect(lobby.count).toBe(1);
    expect(lobby.secondsLeft('a')).toBe(5);
    now = 1000;
    lobby.enter('b');
    expect(pairs).toEqual([['a', 'b']]);
    expect(lobby.count).toBe(0);
    lobby.close();
  });

  it('gives a participant alone the partner policy after waitMs, on its own timer', async () => {
    vi.useFakeTimers();
    try {
      const fallbacks: string[] = [];
      const lobby = new Lobby({ waitMs: 5000, presenceMs: 30_000, now: () => Date.now(), pair: () => {}, fallback: (id) => fallbacks.push(id) });
      lobby.enter('c');
      await vi.advanceTimersByTimeAsync(4900);
      expect(fallbacks).toEqual([]);
      await vi.advanceTimersByTimeAsync(200);
      expect(fallbacks).toEqual(['c']);
      lobby.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not pair someone whose page stopped asking (tab closed), and matches them when they return', () => {
    let now = 0;
    const pairs: string[][] = [];
    const lobby = new Lobby({ waitMs: null, presenceMs: 30_000, now: () => now, pair: (ids) => pairs.push(ids), fallback: () => {} });
    lobby.enter('gone');
    now = 60_000;
    lobby.enter('here');
    expect(pairs).toEqual([]);
    lobby.touch('gone');
    expect(pairs).toEqual([['gone', 'here']]);
  });
});
