import { startServe, course } from './serve-target.js';

let clean: Promise<string[]> | null = null;

/**
 * The course of the same game played cleanly by two bot agents, computed once per test file: an attacked
 * game must come out turn for turn identical to it ("the game is unharmed").
 */
export function cleanCourse(): Promise<string[]> {
  clean ??= (async () => {
    const t = await startServe('baseline');
    try {
      t.bot('agent1');
      t.bot('agent2');
      if ((await t.exited()) !== 0) throw new Error('the clean baseline run failed');
      const c = course(t.records()[0]!);
      // A real game (the builtin scenario's bots talk for several turns), so identical courses mean something.
      if (c.length < 4) throw new Error(`the clean baseline game is too short: ${c.join('; ')}`);
      return c;
    } finally {
      t.dispose();
    }
  })();
  return clean;
}
