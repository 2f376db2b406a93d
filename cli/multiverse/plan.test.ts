import { describe, expect, it } from 'vitest';
import { parseYamlWith } from '../../text/yaml.js';
import { join } from 'node:path';
import { Claim, loadClaim } from './claim.js';
import { distinctArms, planSpecifications } from './plan.js';
import { summarizeCurve } from './effect.js';

const claim = (axes: string, extra = '') =>
  parseYamlWith(Claim, `name: c\nclaim: {metric: success, a: {modes: [script]}, b: {modes: [agents]}, expect: a > b}\nbase: {scenarios: builtin}\naxes:\n${axes}${extra}`, 'c.yaml');

describe('claim files and their specifications', () => {
  it('plans the cartesian product; specifications that differ only in what a side fixes share arms', () => {
    const c = claim('  seed: [1, 2]\n  maxTurns: [4, 6]\n');
    if (!c.ok) throw new Error(c.message);
    const specs = planSpecifications(c.data);
    expect(specs.map((s) => s.choices)).toEqual([{ maxTurns: 4, seed: 1 }, { maxTurns: 4, seed: 2 }, { maxTurns: 6, seed: 1 }, { maxTurns: 6, seed: 2 }]);
    expect(distinctArms(specs)).toHaveLength(8);
    // The same experiment written in another key order is the same arm.
    const again = planSpecifications({ ...c.data, base: { scenarios: 'builtin' } });
    expect(again[0]!.a.id).toBe(specs[0]!.a.id);
  });

  it('a seeded sample keeps N specifications, the same ones each time', () => {
    const c = claim('  seed: [1, 2, 3, 4, 5]\n', 'sample: 2\n');
    if (!c.ok) throw new Error(c.message);
    const one = planSpecifications(c.data).map((s) => s.index);
    expect(one).toHaveLength(2);
    expect(planSpecifications(c.data).map((s) => s.index)).toEqual(one);
  });

  it('refuses an axis a side fixes, and a bad axis value, with its line', () => {
    const fixed = claim('  modes: [[script], [agents]]\n');
    expect(fixed.ok ? '' : fixed.message).toMatch(/^c\.yaml:5: axes\.modes: claim\.a sets modes too/);
    const bad = claim('  protocol: [paper, nosuch]\n');
    expect(bad.ok ? '' : bad.message).toMatch(/^c\.yaml:5: axes\.protocol\.1: 'nosuch' is not a protocol/);
  });

  it('the verdict follows its thresholds', () => {
    const e = (v: number) => ({ pairs: 3, effect: v, lo: v - 1, hi: v + 1 });
    expect(summarizeCurve([e(1), e(2), e(3)], 1).verdict).toBe('robust');
    expect(summarizeCurve([e(1), e(-2), e(3)], 1).verdict).toBe('fragile');
    expect(summarizeCurve([e(-1), e(-2), e(3)], 1).verdict).toBe('reversed');
    expect(summarizeCurve([e(-1), e(-2), e(-3)], -1)).toMatchObject({ verdict: 'robust', holdShare: 1, median: -2 });
  });

  it('examples/claims/bots.yaml is a valid claim of 8 specifications', () => {
    const c = loadClaim(join(import.meta.dirname, '..', '..', 'examples', 'claims', 'bots.yaml'));
    if (!c.ok) throw new Error(c.message);
    expect(planSpecifications(c.claim)).toHaveLength(8);
  });
});
