import { describe, expect, it } from 'vitest';
import { cohenKappa, fleissKappa } from './kappa.js';
import { summariseHuman } from './summary.js';
import type { Annotation } from './annotation.js';

describe('agreement statistics', () => {
  it("Fleiss' kappa: hand-computed value, single-rated items left out, undefined when nobody varies", () => {
    // P̄ = (1 + 1 + 0) / 3, Pe = 0.5² + 0.5² → κ = (2/3 − 1/2) / (1/2) = 1/3
    const r = fleissKappa([['A', 'A'], ['B', 'B'], ['A', 'B'], ['A']]);
    expect(r.items).toBe(3);
    expect(r.kappa).toBeCloseTo(1 / 3, 10);
    expect(fleissKappa([['A', 'A'], ['A', 'A']]).kappa).toBeNull();
    expect(fleissKappa([['A']]).kappa).toBeNull();
  });

  it("Cohen's kappa: hand-computed value", () => {
    // po = 2/3, pe = 2/3·1/3 + 1/3·2/3 = 4/9 → κ = (6/9 − 4/9) / (5/9) = 0.4
    expect(cohenKappa(['A', 'B', 'A'], ['A', 'B', 'B'])).toBeCloseTo(0.4, 10);
    expect(cohenKappa(['A'], ['A', 'B'])).toBeNull();
  });

  it('summary: latest answer per annotator and pair, Wilson interval, agreement with the judge by majority', () => {
    const ans = (annotator: string, key: string, winner: 'A' | 'B'): Annotation => ({
      v: 1, at: '', annotator, key, scenarioId: key, runA: 'ra', runB: 'rb', episodeA: 'ea', episodeB: 'eb', aShownFirst: true, winner,
    });
    const s = summariseHuman(
      [ans('x', 'k1', 'B'), ans('x', 'k1', 'A'), ans('y', 'k1', 'A'), ans('x', 'k2', 'B'), ans('y', 'k2', 'B')],
      [{ key: 'k1', ok: true, winner: 'A' }, { key: 'k2', ok: true, winner: 'A' }],
    );
    expect(s.answers).toBe(4);
    expect(s.winA.wins).toBe(2);
    expect(s.winA.lo).toBeGreaterThan(0);
    expect(s.winA.hi).toBeLessThan(1);
    expect(s.fleiss.kappa).toBeCloseTo(1, 10);
    expect(s.cohen?.items).toBe(2);
    expect(s.judge).toMatchObject({ items: 2, agreement: 0.5 });
  });
});
