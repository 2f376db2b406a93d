import { describe, expect, it } from 'vitest';
import { axisSwings } from './swing.js';

const row = (index: number, choices: Record<string, unknown>, effect: number | null) => ({ index, choices, effect: { pairs: 3, effect, lo: null, hi: null } });

describe('per-axis swing', () => {
  it('is the spread of the per-value median effects, largest first; a value without effects has no median', () => {
    const rows = [
      row(1, { seed: 1, protocol: 'paper' }, 0.1),
      row(2, { seed: 1, protocol: 'parley' }, 0.9),
      row(3, { seed: 2, protocol: 'paper' }, 0.3),
      row(4, { seed: 2, protocol: 'parley' }, 0.7),
      row(5, { seed: 3, protocol: 'paper' }, null),
    ];
    const [protocol, seed] = axisSwings(rows);
    expect(protocol!.axis).toBe('protocol');
    expect(protocol!.values).toEqual([{ value: 'paper', specifications: 2, median: 0.2 }, { value: 'parley', specifications: 2, median: 0.8 }]);
    expect(protocol!.swing).toBeCloseTo(0.6);
    expect(seed!.values.map((v) => v.median)).toEqual([0.5, 0.5, null]);
    expect(seed!.swing).toBe(0);
  });
});
