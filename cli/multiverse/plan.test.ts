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

  it("examples/claims/paper-headline.yaml (the paper's script > agents on goal) is valid: its judge and leak axes share arms where they can", () => {
    const c = loadClaim(join(import.meta.dirname, '..', '..', 'examples', 'claims', 'paper-headline.yaml'));
    if (!c.ok) throw new Error(c.message);
    const specs = planSpecifications(c.claim);
    expect(specs).toHaveLength(32);
    // 2 models × 2 temperatures × 2 judge views × 2 leak settings × 2 sides; the judge axis adds none.
    expect(distinctArms(specs)).toHaveLength(32);
  });
});

describe('model, temperature and judge in a claim', () => {
  const parse = (text: string) => parseYamlWith(Claim, text, 'c.yaml');
  const head = (metric: string, a = '{mode: script}', b = '{mode: agents}') => `name: c\nclaim: {metric: ${metric}, a: ${a}, b: ${b}, expect: a > b}\nbase: {scenarios: builtin}\n`;

  it("reads the issue's `mode: script` as `modes: [script]`, and refuses both at once", () => {
    const c = parse(`${head('success')}axes:\n  seed: [1]\n`);
    if (!c.ok) throw new Error(c.message);
    expect(c.data.claim.a).toEqual({ modes: ['script'] });
    const both = parse(`${head('success', '{mode: script, modes: [agents]}')}axes:\n  seed: [1]\n`);
    expect(both.ok ? '' : both.message).toMatch(/^c\.yaml:2: claim\.a\.mode: give mode or modes, not both/);
  });

  it('model and temperature set every LLM seat; a judge axis shares the arms', () => {
    const c = parse(`${head('goal')}axes:\n  model: [openai:m1, openai:m2]\n  temperature: [0.5]\n  judge: [openai:j1, {spec: openai:j2, params: {temperature: 0}}]\n`);
    if (!c.ok) throw new Error(c.message);
    const specs = planSpecifications(c.data);
    expect(specs).toHaveLength(4);
    // Only the seats the side's modes use: script mode's writer; agents mode's agents.
    expect(specs[0]!.a.experiment).toEqual({ scenarios: 'builtin', modes: ['script'], scriptWriter: { spec: 'openai:m1', params: { temperature: 0.5 } } });
    expect(specs[0]!.b.experiment).toEqual({ scenarios: 'builtin', modes: ['agents'], agents: [{ spec: 'openai:m1', params: { temperature: 0.5 } }] });
    // 2 models × 2 sides; the judge is how a side is judged, not part of its arm.
    expect(distinctArms(specs)).toHaveLength(4);
    // (The product follows the experiment schema's key order: judge before model.)
    const j2 = { spec: 'openai:j2', params: { temperature: 0 } };
    expect(specs.map((s) => s.judging.a.judge)).toEqual(['openai:j1', 'openai:j1', j2, j2]);
  });

  it('a seat that is a bot keeps its policy; a model with no LLM seat to set is refused where it is given', () => {
    const c = parse(`${head('success')}base: {scenarios: builtin, agents: [bot, openai:x]}\naxes:\n  model: [openai:m1]\n`.replace('base: {scenarios: builtin}\n', ''));
    if (!c.ok) throw new Error(c.message);
    expect(planSpecifications(c.data)[0]!.b.experiment['agents']).toEqual(['bot', 'openai:m1']);
    const none = parse(`${head('success')}axes:\n  temperature: [0.3, 0.7]\n`);
    expect(none.ok ? '' : none.message).toMatch(/^c\.yaml:5: axes\.temperature: claim\.a has no LLM seat for temperature to set/);
    const badModel = parse(`${head('success')}axes:\n  model: [bot]\n`);
    expect(badModel.ok ? '' : badModel.message).toMatch(/^c\.yaml:5: axes\.model\.0: 'bot' is not an LLM spec/);
  });

  it('a judged metric needs a judge; any other refuses one', () => {
    const noJudge = parse(`${head('goal')}axes:\n  model: [openai:m1]\n`);
    expect(noJudge.ok ? '' : noJudge.message).toMatch(/^c\.yaml:2: claim\.metric: goal is read from judge scores: give a judge/);
    const idle = parse(`${head('success')}axes:\n  seed: [1]\n  judge: [openai:j1]\n`);
    expect(idle.ok ? '' : idle.message).toMatch(/^c\.yaml:6: axes\.judge: the metric success is not read from judge scores/);
    const twice = parse(`${head('goal')}axes:\n  judge: [openai:j1, {spec: openai:j1}]\n`);
    expect(twice.ok ? '' : twice.message).toMatch(/^c\.yaml:5: axes\.judge\.1: judge openai:j1 is on this axis twice/);
  });
});

describe('instructions: the framing of the prompts', () => {
  const parse = (axis: string) => parseYamlWith(Claim, `name: c\nclaim: {metric: success, a: {mode: script}, b: {mode: agents}, expect: a > b}\nbase: {scenarios: builtin, model: openai:m1}\naxes:\n  instructions: ${axis}\n`, 'c.yaml');

  it('a shipped variant sets the prompt directory of the seats whose templates it has; the other side keeps its arm', () => {
    const c = parse('[default, goal-first]');
    if (!c.ok) throw new Error(c.message);
    const [plain, framed] = planSpecifications(c.data);
    expect(plain!.b.experiment['agents']).toEqual(['openai:m1']);
    expect(framed!.b.experiment['agents']).toEqual([{ spec: 'openai:m1', promptDir: expect.stringMatching(/agent-node\/prompts\/variants\/goal-first$/) }]);
    // goal-first frames the agents' instructions only: the script writer's arm is the same under both values.
    expect(framed!.a.id).toBe(plain!.a.id);
    expect(framed!.b.id).not.toBe(plain!.b.id);
  });

  it('an unknown variant or a directory without templates is refused with its line', () => {
    const unknown = parse('[default, nosuch]');
    expect(unknown.ok ? '' : unknown.message).toMatch(/^c\.yaml:5: axes\.instructions\.1: 'nosuch' is not an instruction variant \(shipped: default, goal-first/);
    const empty = parse(`[${join(import.meta.dirname)}/]`);
    expect(empty.ok ? '' : empty.message).toMatch(/^c\.yaml:5: axes\.instructions\.0: .* holds no prompt template/);
  });
});
