import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, main, version } from './main.js';

/** Runs `parley …` in-process; returns the exit code and what went to stdout / stderr. */
async function parley(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const code = await main(argv);
  vi.restoreAllMocks();
  return { code, out: out.join('\n'), err: err.join('\n') };
}

afterEach(() => vi.restoreAllMocks());

describe('one command-line layer', () => {
  it('answers an unknown flag with one line of the same form, exit 2, for every command', async () => {
    for (const name of [...Object.keys(COMMANDS), 'scenarios import', 'scenarios list', 'scenarios make', 'scenarios generate']) {
      const r = await parley(...name.split(' '), '--bogus');
      expect(r.code, name).toBe(2);
      expect(r.err.split('\n'), name).toHaveLength(1);
      expect(r.err, name).toMatch(new RegExp(`^parley ${name}: unknown flag --bogus \\(`));
    }
  });

  it('turns invalid values into one line without a stack trace', async () => {
    const r = await parley('demo', '--concurrency', '0');
    expect(r).toMatchObject({ code: 2, err: 'parley demo: --concurrency must be a positive integer (got 0)' });
    const z = await parley('run', '--out', 'x', '--max-turns', '0');
    expect(z.code).toBe(2);
    expect(z.err).toMatch(/^parley run: --max-turns: /);
    expect(z.err).not.toMatch(/\n|at .*\.ts/);
  });

  it('prints the version', async () => {
    expect(await parley('--version')).toMatchObject({ code: 0, out: `parley ${version()}` });
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('generates --help from the flags', async () => {
    const r = await parley('show', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: parley show RUN/);
    expect(r.out).toMatch(/--seat SEAT/);
  });
});

describe('parley --help', () => {
  it("generates its lines from modules that import nothing, so it loads no command's code", () => {
    const source = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    const summaries = [...source.matchAll(/summary: \(\) => import\('(\.\/commands\/[\w-]+)\.js'\)/g)].map((m) => m[1]!);
    expect(summaries.sort()).toEqual(['./commands/export-formats', './commands/scenario-subcommands']);
    for (const file of summaries) expect(readFileSync(new URL(`${file}.ts`, import.meta.url), 'utf8'), file).not.toMatch(/^\s*(?:import|export)\b[^;]*\bfrom\s+'/m);
  });
});

