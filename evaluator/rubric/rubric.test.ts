import { describe, expect, it } from 'vitest';
import { DIMENSIONS } from '../dimensions.js';
import { GOAL_RUBRIC, isSotopia, SOTOPIA_RUBRIC } from './builtin.js';
import { loadRubric, parseRubric } from './load-rubric.js';
import { dimensionsFor } from './rubric.js';
import { WARMTH_HONESTY_YAML } from '../testing/rubrics.js';

const WARMTH = WARMTH_HONESTY_YAML;

describe('rubric files', () => {
  it('reads the documented shape into dimensions with ranges and criteria', () => {
    const r = parseRubric(WARMTH, 'r.yaml');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.rubric.name).toBe('warmth-honesty');
    expect(r.rubric.dimensions.map((d) => [d.name, d.min, d.max, d.seats])).toEqual([['warmth', 0, 5, 'all'], ['honesty', -3, 3, 'all']]);
    expect(r.rubric.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the text the judge is given: a changed criterion is another rubric', () => {
    const a = parseRubric(WARMTH, 'r.yaml');
    const b = parseRubric(WARMTH.replace('truthful', 'candid'), 'r.yaml');
    const c = parseRubric(`# a comment changes nothing\n${WARMTH}`, 'r.yaml');
    if (!a.ok || !b.ok || !c.ok) throw new Error('parse failed');
    expect(a.rubric.hash).not.toBe(b.rubric.hash);
    expect(a.rubric.hash).toBe(c.rubric.hash);
  });

  it('names the file, the line and the key for a range whose minimum exceeds its maximum', () => {
    const r = parseRubric(WARMTH.replace('[0, 5]', '[5, 0]'), 'bad.yaml');
    expect(r).toEqual({ ok: false, message: 'bad.yaml:4: dimensions.0.range: minimum 5 exceeds maximum 0' });
  });

  it('names an unknown key with its line', () => {
    const r = parseRubric(WARMTH.replace('  - name: honesty\n', '  - name: honesty\n    weight: 2\n'), 'bad.yaml');
    expect(r).toEqual({ ok: false, message: "bad.yaml:7: dimensions.1.weight: unknown key 'weight'" });
    const top = parseRubric(`${WARMTH}scale: 7\n`, 'top.yaml');
    expect(top.ok ? '' : top.message).toBe("top.yaml:9: scale: unknown key 'scale'");
  });

  it('refuses duplicate names, unsafe names, non-integer ranges, empty criteria and broken YAML, each on one line', () => {
    const messages = [
      parseRubric(WARMTH.replace('name: honesty', 'name: warmth'), 'f.yaml'),
      parseRubric(WARMTH.replace('name: honesty', 'name: "Hon esty"'), 'f.yaml'),
      parseRubric(WARMTH.replace('[-3, 3]', '[-3, 2.5]'), 'f.yaml'),
      parseRubric(WARMTH.replace('criteria: Whether the character is truthful; negative for deception.', 'criteria: "  "'), 'f.yaml'),
      parseRubric('name: x\ndimensions: [', 'f.yaml'),
    ].map((r) => (r.ok ? 'ok' : r.message));
    expect(messages[0]).toMatch(/^f\.yaml:6: dimensions\.1\.name: dimension 'warmth' appears twice$/);
    expect(messages[1]).toMatch(/^f\.yaml:6: dimensions\.1\.name: /);
    expect(messages[2]).toMatch(/^f\.yaml:7: dimensions\.1\.range\.1: must be an integer$/);
    expect(messages[3]).toMatch(/^f\.yaml:8: dimensions\.1\.criteria: criteria text is required$/);
    expect(messages[4]).toMatch(/^f\.yaml:2: invalid YAML/);
    for (const m of messages) expect(m.split('\n')).toHaveLength(1);
  });

  it('applies a dimension to all seats, or to the seat roles and ids it names', () => {
    const r = parseRubric(`name: bargain\ndimensions:\n  - name: haggling\n    range: [0, 3]\n    criteria: x\n    seats: [buyer]\n  - name: manners\n    range: [0, 3]\n    criteria: y\n`, 'b.yaml');
    if (!r.ok) throw new Error(r.message);
    expect(dimensionsFor(r.rubric, { seat: 'a', role: 'buyer' }).map((d) => d.name)).toEqual(['haggling', 'manners']);
    expect(dimensionsFor(r.rubric, { seat: 'b', role: 'seller' }).map((d) => d.name)).toEqual(['manners']);
    expect(dimensionsFor(r.rubric, { seat: 'buyer', role: null }).map((d) => d.name)).toEqual(['haggling', 'manners']);
  });
});

describe('built-in rubrics', () => {
  it('sotopia is SOTOPIA-EVAL: its seven dimensions, ranges and criteria', () => {
    expect(SOTOPIA_RUBRIC.dimensions.map((d) => [d.name, d.min, d.max, d.criteria])).toEqual(DIMENSIONS.map((d) => [d.name, d.min, d.max, d.rubric]));
    expect(isSotopia(SOTOPIA_RUBRIC)).toBe(true);
    expect(isSotopia(undefined)).toBe(true);
    expect(isSotopia(GOAL_RUBRIC)).toBe(false);
  });

  it('goal is the goal dimension alone, 0–10', () => {
    expect(GOAL_RUBRIC.dimensions.map((d) => [d.name, d.min, d.max])).toEqual([['goal', 0, 10]]);
    expect(GOAL_RUBRIC.dimensions[0]!.criteria).toBe(DIMENSIONS.find((d) => d.name === 'goal')!.rubric);
  });

  it('are found by name before any file', () => {
    expect(loadRubric('goal')).toEqual({ ok: true, rubric: GOAL_RUBRIC });
    const missing = loadRubric('/nonexistent/rubric.yaml');
    expect(missing.ok ? '' : missing.message).toMatch(/^\/nonexistent\/rubric\.yaml: cannot read \(no such file; built-in rubrics: sotopia, goal\)$/);
  });
});
