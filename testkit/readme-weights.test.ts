import { describe, expect, it } from 'vitest';
import { directiveFor, shellBlocks } from './readme-blocks.js';
import { commandWeight, MEASURED, weightKey } from './readme-weights.js';
import { readmeFiles, readText } from '../test/readme/runner.js';

const repo = new URL('..', import.meta.url).pathname;
const blocks = readmeFiles(repo).flatMap((f) => shellBlocks(f, readText(repo, f)));
const HOW = 'measure again: testkit/readme-weights.ts says how';

describe("the README test's measured command weights", () => {
  it('has a measurement for every command of README.md and docs/*.md that the README test runs', () => {
    const missing = blocks.flatMap((b) => b.commands
      .filter((c) => directiveFor(b, c)?.kind !== 'skip' && !MEASURED[weightKey(b.file, c.code)])
      .map((c) => `${b.file}:${c.line} ${c.code}`));
    expect(missing, `commands without a measured weight (${HOW})`).toEqual([]);
  });

  it('measures only commands the files still have (a stale weight would hide a missing one)', () => {
    const keys = new Set(blocks.flatMap((b) => b.commands.map((c) => weightKey(b.file, c.code))));
    expect(Object.keys(MEASURED).filter((k) => !keys.has(k)), `weights of commands no longer in the files (${HOW})`).toEqual([]);
  });

  it('gives a command the table lacks the median of its kind', () => {
    expect(commandWeight('X.md', 'npx parley run --out runs/new')).toBeGreaterThan(commandWeight('X.md', 'npx parley show runs/new'));
  });
});
