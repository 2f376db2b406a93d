import { describe, expect, it } from 'vitest';
import { formatHelp, parseArgs, type FlagSpecs } from './args.js';

const specs: FlagSpecs = {
  out: { type: 'string', describe: 'run directory', metavar: 'DIR' },
  'max-turns': { type: 'number', describe: 'turn limit' },
  modes: { type: 'list', describe: 'modes' },
  multiplex: { type: 'boolean', describe: 'multiplex' },
};

describe('parseArgs', () => {
  it('reads spaced and = values, numbers, lists and booleans', () => {
    const r = parseArgs(['--out', 'd', '--max-turns=7', '--modes', 'agents, script', '--multiplex', 'extra'], specs);
    expect(r).toEqual({ ok: true, flags: { out: 'd', 'max-turns': 7, modes: ['agents', 'script'], multiplex: true }, positionals: ['extra'] });
  });

  it('names the flag in every error', () => {
    expect(parseArgs(['--nope'], specs)).toEqual({ ok: false, message: 'unknown flag --nope' });
    expect(parseArgs(['--out'], specs)).toEqual({ ok: false, message: '--out needs a value (DIR)' });
    expect(parseArgs(['--out', '--modes', 'x'], specs)).toMatchObject({ ok: false, message: expect.stringContaining('--out') });
    expect(parseArgs(['--max-turns', 'ten'], specs)).toEqual({ ok: false, message: "--max-turns must be a number, got 'ten'" });
  });

  it('treats -h as help and lists flags in help text', () => {
    expect(parseArgs(['-h'], specs)).toMatchObject({ ok: true, flags: { help: true } });
    expect(formatHelp('parley x', 'does x', specs)).toMatch(/--out DIR\s+run directory/);
  });
});
