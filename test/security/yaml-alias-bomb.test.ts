import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/processes.js';
import { botRunFixture, copyOf } from '../helpers/run-fixture.js';
import { cleanEnv, parleyCli } from '../llm-run-helpers.js';

/**
 * Issue 35: a YAML alias bomb (aliases of aliases: billions of nodes from a few lines) in an experiment or
 * rubric file is stopped by the YAML library's alias budget and refused like any mistake in the file:
 * one line with FILE:LINE (the first alias), exit 2 — not the library's bare message and exit 1.
 */
describe('red team: a YAML alias bomb', () => {
  const tmp = tempDir('yaml-bomb');
  const bomb = join(tmp.path, 'bomb.yaml');
  const run = join(tmp.path, 'R');
  beforeAll(async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 8; i++) {
      const [name, prev] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    writeFileSync(bomb, `${levels.join('\n')}\n`);
    // Any run will do (eval refuses the rubric before judging): test/silent-settings.test.ts's, built once for both.
    copyOf(await botRunFixture(['--modes', 'agents', '--limit', '1']), run);
  });
  afterAll(() => tmp.remove());

  it.each([
    ['run --experiment', () => ['run', '--experiment', bomb, '--out', join(tmp.path, 'X')]],
    ['eval --rubric', () => ['eval', run, '--rubric', bomb, '--judge', 'openai:gpt-4o']],
  ])('%s: FILE:LINE, exit 2', async (_name, args) => {
    const r = await parleyCli(args(), cleanEnv());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bomb\.yaml:2: invalid YAML \(Excessive alias count/);
  });
});
