import { describe, expect, it } from 'vitest';
import { builtinScenarios, builtinScenarioSet } from './builtin.js';

// A `--limit`ed run builds only the set's first scenarios: they must be the whole set's, byte for byte.
describe('builtinScenarios(seed, first)', () => {
  for (const seed of [1, 7]) {
    const all = JSON.stringify(builtinScenarios(seed));
    for (const first of [1, 2, 10, 11, 19, 20, 25]) {
      it(`seed ${seed}: the first ${first} are the whole set's first ${first}`, () => {
        const part = builtinScenarios(seed, first);
        expect(part).toHaveLength(Math.min(first, 20));
        expect(JSON.stringify(part)).toBe(JSON.stringify(JSON.parse(all).slice(0, first)));
      });
    }
  }

  it('a subset still filters the whole set (first is not applied)', () => {
    expect(builtinScenarioSet(1, 'groups', 1).length).toBe(builtinScenarioSet(1, 'groups').length);
  });
});
