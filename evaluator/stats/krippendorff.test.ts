import { describe, expect, it } from 'vitest';
import { alphaWithInterval, krippendorffInterval, meanAbsoluteDifference } from './krippendorff.js';

describe("Krippendorff's alpha (interval)", () => {
  it('is 1 when every judge agrees on every unit', () => {
    expect(krippendorffInterval([[1, 1], [2, 2], [3, 3]]).alpha).toBe(1);
  });

  it('matches a hand computation with systematic disagreement', () => {
    // Units (1,2) and (2,1): n = 4; D_o = (2·1 + 2·1)/4 = 1; D_e = 8 ordered pairs differing by 1 / (4·3) = 2/3.
    // α = 1 − 1 / (2/3) = −0.5.
    expect(krippendorffInterval([[1, 2], [2, 1]]).alpha).toBeCloseTo(-0.5, 12);
  });

  it('matches a hand computation with three units', () => {
    // Values 0,0 | 0,2 | 4,4: n = 6, D_o = (2·4)/6 = 4/3; Σx = 10, Σx² = 36, D_e = (2·6·36 − 2·100)/30 = 232/30.
    expect(krippendorffInterval([[0, 0], [0, 2], [4, 4]]).alpha).toBeCloseTo(1 - (4 / 3) / (232 / 30), 12);
  });

  it("reproduces the textbook example (Krippendorff 2011, four coders, twelve units, missing values): 0.849", () => {
    // Columns are units; `null` is a missing value. Unit 12 has a single value and is not pairable.
    const coders: (number | null)[][] = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const units = coders[0]!.map((_, u) => coders.map((c) => c[u]!).filter((v): v is number => v !== null));
    const a = krippendorffInterval(units);
    expect(a.units).toBe(11);
    expect(a.values).toBe(40);
    expect(a.alpha!).toBeCloseTo(0.849, 3);
  });

  it('is undefined without variation or without pairable values', () => {
    expect(krippendorffInterval([[3, 3], [3, 3]]).alpha).toBeNull();
    expect(krippendorffInterval([[3], [4]]).alpha).toBeNull();
  });

  it('gives a seeded bootstrap interval that contains the point estimate and repeats with the seed', () => {
    const units = Array.from({ length: 40 }, (_, i) => [i % 7, (i % 7) + (i % 3 === 0 ? 1 : 0)]);
    const a = alphaWithInterval(units, 5);
    const b = alphaWithInterval(units, 5);
    expect(a).toEqual(b);
    expect(a.lo!).toBeLessThanOrEqual(a.alpha!);
    expect(a.hi!).toBeGreaterThanOrEqual(a.alpha!);
    expect(a.hi!).toBeLessThanOrEqual(1);
    expect(alphaWithInterval(units, 6).lo).not.toBe(a.lo);
  });

  it('mean absolute difference averages over every pair of judges', () => {
    expect(meanAbsoluteDifference([[1, 3], [2, 2, 5]])).toBeCloseTo((2 + 0 + 3 + 3) / 4, 12);
    expect(meanAbsoluteDifference([[1]])).toBeNull();
  });
});
