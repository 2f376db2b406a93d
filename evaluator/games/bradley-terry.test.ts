import { describe, expect, it } from 'vitest';
import { bradleyTerry, rateWithIntervals, type PairResult } from './bradley-terry.js';

const results = (wins: Array<[string, string, number]>): PairResult[] => {
  let game = 0;
  return wins.flatMap(([w, l, n]) => Array.from({ length: n }, () => ({ game: game++, winner: w, loser: l })));
};

describe('Bradley–Terry ratings', () => {
  it('an even record rates even; a better record rates higher, by the odds', () => {
    const even = bradleyTerry(['a', 'b'], results([['a', 'b', 5], ['b', 'a', 5]]));
    expect(even.get('a')).toBeCloseTo(1500, 6);
    const tilted = bradleyTerry(['a', 'b'], results([['a', 'b', 30], ['b', 'a', 10]]));
    // With the half-win prior: 30.5 : 10.5 odds, split around 1500.
    expect(tilted.get('a')! - tilted.get('b')!).toBeCloseTo(400 * Math.log10(30.5 / 10.5), 3);
  });

  it('a clean sweep stays finite (the prior), and three players order by strength', () => {
    const sweep = bradleyTerry(['a', 'b'], results([['a', 'b', 8]]));
    expect(Number.isFinite(sweep.get('a')!)).toBe(true);
    expect(sweep.get('a')!).toBeGreaterThan(sweep.get('b')!);
    const three = bradleyTerry(['a', 'b', 'c'], results([['a', 'b', 6], ['b', 'a', 2], ['b', 'c', 6], ['c', 'b', 2], ['a', 'c', 7], ['c', 'a', 1]]));
    expect(three.get('a')!).toBeGreaterThan(three.get('b')!);
    expect(three.get('b')!).toBeGreaterThan(three.get('c')!);
  });

  it('bootstrap intervals over games hold the point rating and are seeded', () => {
    const r = results([['a', 'b', 14], ['b', 'a', 6]]);
    const played = new Map([['a', 20], ['b', 20]]);
    const ratings = rateWithIntervals(r, played);
    expect(ratings.map((x) => x.model)).toEqual(['a', 'b']);
    for (const x of ratings) {
      expect(x.lo).toBeLessThanOrEqual(x.rating);
      expect(x.hi).toBeGreaterThanOrEqual(x.rating);
      expect(x.hi - x.lo).toBeGreaterThan(0);
    }
    expect(rateWithIntervals(r, played)).toEqual(ratings);
    expect(rateWithIntervals([], played)).toEqual([]);
  });
});
