import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from './experiment.js';
import { loadRubric } from '../evaluator/rubric/load-rubric.js';

// The experiment files shipped in examples/ must stay valid as the schema evolves (README points at them).
describe('examples/*.yaml', () => {
  const dir = join(import.meta.dirname, '..', 'examples');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    it(`${file} is a valid experiment`, () => {
      const result = loadExperiment(join(dir, file));
      expect(result.ok ? 'ok' : result.message).toBe('ok');
    });
  }
});

// The rubric files shipped in examples/rubrics/ too (docs/rubrics.md points at them).
describe('examples/rubrics/*.yaml', () => {
  const dir = join(import.meta.dirname, '..', 'examples', 'rubrics');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    it(`${file} is a valid rubric`, () => {
      const result = loadRubric(join(dir, file));
      expect(result.ok ? 'ok' : result.message).toBe('ok');
    });
  }
});
