import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from './experiment.js';

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
