import { describe, expect, it } from 'vitest';
import { parseForkTurns } from './fork-at.js';

describe('parley fork --at', () => {
  it('one turn, a list (sorted, without repeats), or all (0 to the number of turns played)', () => {
    expect(parseForkTurns('4', 8, 'ep')).toEqual({ ok: true, turns: [4] });
    expect(parseForkTurns('6,2,4,2', 8, 'ep')).toEqual({ ok: true, turns: [2, 4, 6] });
    expect(parseForkTurns('all', 3, 'ep')).toEqual({ ok: true, turns: [0, 1, 2, 3] });
    expect(parseForkTurns('8', 8, 'ep')).toEqual({ ok: true, turns: [8] });
  });

  it('a turn past the end names the episode and its turns; anything not a turn number is refused', () => {
    expect(parseForkTurns('999', 8, 'ep-1')).toEqual({ ok: false, message: 'fork turn 999 is past the end of episode ep-1: it played 8 turn(s) (0–7), so a fork turn goes from 0 to 8' });
    for (const bad of ['-1', 'x', '1.5', ',', '']) expect(parseForkTurns(bad, 8, 'ep').ok).toBe(false);
  });
});
