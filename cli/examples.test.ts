import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from './experiment.js';
import { loadRubric } from '../evaluator/rubric/load-rubric.js';

// The experiment files shipped in examples/ must stay valid as the schema evolves (README points at them).
describe('examples/*.yaml', () => {
  const dir = join(import.meta.dirname, '..', 'examples');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    it(`${file} is a valid experiment${file === 'agents-ft.yaml' ? ' once its placeholder model ids are filled in' : ''}`, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      if (!text.includes('REPLACE-ME')) {
        const result = loadExperiment(join(dir, file));
        expect(result.ok ? 'ok' : result.message).toBe('ok');
        return;
      }
      // As shipped, the placeholder is refused (issue 37: it would run as a model id); filled in, valid.
      const shipped = loadExperiment(join(dir, file));
      expect(shipped.ok ? 'ok' : shipped.message).toMatch(/agent1\.spec: '.*REPLACE-ME' still holds the example's placeholder model id/);
      const tmp = mkdtempSync(join(tmpdir(), 'parley-example-'));
      try {
        writeFileSync(join(tmp, file), text.replaceAll('REPLACE-ME', 'abc123'));
        const filled = loadExperiment(join(tmp, file));
        expect(filled.ok ? 'ok' : filled.message).toBe('ok');
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
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
