import { describe, expect, it } from 'vitest';
import type { TrainingExample } from './examples.js';
import { splitByScenario } from './split.js';

const examples: TrainingExample[] = Array.from({ length: 60 }, (_, i) => ({
  runDir: 'r', episodeId: `ep-${i % 12}`, scenarioId: `s-${i % 20}`, mode: 'agents', seat: 'agent1', turn: i, model: null, messages: [],
}));

describe('splitByScenario', () => {
  it('puts every scenario on one side only, about the fraction of scenarios in training', () => {
    const s = splitByScenario(examples, 0.9, 1);
    expect(s.train.length + s.validation.length).toBe(examples.length);
    expect(s.trainScenarios).toHaveLength(18);
    expect(s.validationScenarios).toHaveLength(2);
    const train = new Set(s.train.map((e) => e.scenarioId));
    for (const e of s.validation) expect(train.has(e.scenarioId)).toBe(false);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(splitByScenario(examples, 0.9, 1).validationScenarios).toEqual(splitByScenario(examples, 0.9, 1).validationScenarios);
    const seeds = new Set([1, 2, 3, 4, 5].map((seed) => splitByScenario(examples, 0.9, seed).validationScenarios.join()));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('keeps a scenario on each side when there are two or more', () => {
    const two = examples.filter((e) => e.scenarioId === 's-1' || e.scenarioId === 's-2');
    const s = splitByScenario(two, 0.9, 1);
    expect([s.trainScenarios.length, s.validationScenarios.length]).toEqual([1, 1]);
  });
});
