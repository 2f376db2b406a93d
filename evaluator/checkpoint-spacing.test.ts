import { describe, expect, it } from 'vitest';
import { CheckpointSpacing, REWRITE_SPACING } from './checkpoint-spacing.js';

/** A clock the test moves; a rewrite "takes" what the test says by moving it. */
function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe("CheckpointSpacing: eval's rewrites of episodes.jsonl", () => {
  it('waits 20x as long as the last rewrite took when that is more than the 2 s floor', () => {
    const c = clock();
    const spacing = new CheckpointSpacing(2_000, c.now);
    c.advance(2_000);
    expect(spacing.due()).toBe(true);
    // A slow rewrite (a big file, a loaded machine): 500 ms, so the next one waits 10 s, not 2 s.
    spacing.rewrite(() => c.advance(500));
    c.advance(2_000);
    expect(spacing.due(), 'a fixed 2 s spacing would rewrite again here').toBe(false);
    c.advance(REWRITE_SPACING * 500 - 2_000 - 1);
    expect(spacing.due()).toBe(false);
    c.advance(1);
    expect(spacing.due()).toBe(true);
  });

  it('never less than the floor (2 s) after a fast rewrite, and each rewrite sets the next gap afresh', () => {
    const c = clock();
    const spacing = new CheckpointSpacing(2_000, c.now);
    spacing.rewrite(() => c.advance(400)); // next gap 8 s
    spacing.rewrite(() => c.advance(10)); // next gap 2 s (20 x 10 ms = 200 ms is under the floor)
    c.advance(1_999);
    expect(spacing.due()).toBe(false);
    c.advance(1);
    expect(spacing.due()).toBe(true);
  });

  it('the first rewrite is due the floor after the start', () => {
    const c = clock();
    const spacing = new CheckpointSpacing(2_000, c.now);
    c.advance(1_999);
    expect(spacing.due()).toBe(false);
    c.advance(1);
    expect(spacing.due()).toBe(true);
  });
});
