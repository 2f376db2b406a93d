import { createRng } from '../scenarios/rng.js';
import type { TrainingExample } from './examples.js';

export interface Split {
  train: TrainingExample[];
  validation: TrainingExample[];
  trainScenarios: string[];
  validationScenarios: string[];
}

/**
 * A seeded train/validation split BY SCENARIO: the scenarios are shuffled with `seed` and the first
 * round(fraction × n) go to training (at least one each side when there are two or more), so no scenario
 * is in both files and the same inputs and seed always give the same split.
 */
export function splitByScenario(examples: readonly TrainingExample[], fraction: number, seed: number): Split {
  const scenarios = [...new Set(examples.map((e) => e.scenarioId))].sort();
  const shuffled = createRng(seed).shuffle(scenarios);
  let nTrain = Math.round(fraction * shuffled.length);
  if (shuffled.length >= 2) nTrain = Math.min(shuffled.length - 1, Math.max(1, nTrain));
  const trainSet = new Set(shuffled.slice(0, nTrain));
  return {
    train: examples.filter((e) => trainSet.has(e.scenarioId)),
    validation: examples.filter((e) => !trainSet.has(e.scenarioId)),
    trainScenarios: shuffled.slice(0, nTrain).sort(),
    validationScenarios: shuffled.slice(nTrain).sort(),
  };
}
