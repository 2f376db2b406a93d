import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempRunPaths } from './testing/temp-paths.js';
import { readRunJson, RUN_JSON_VERSION, writeRunJson } from './run-json.js';
import { fixtureRunJson } from './testing/fixture.js';

describe('run.json: one schema to write and to read it back', () => {
  const paths = tempRunPaths('runjson');

  it('writes the version and reads back what it wrote, fields it does not know included', () => {
    const p = paths();
    const written = writeRunJson(p, { ...fixtureRunJson('r1', ['s1']), experiment: { name: 'later field' } });
    expect(JSON.parse(readFileSync(p.runJson, 'utf8')).v).toBe(RUN_JSON_VERSION);
    const read = readRunJson(p);
    expect(read).toEqual({ ok: true, run: written });
    expect(read.ok && read.run?.['experiment']).toEqual({ name: 'later field' });
  });

  it('refuses to write a run.json its readers could not read', () => {
    const p = paths();
    expect(() => writeRunJson(p, { ...fixtureRunJson('r1', []), hosting: 'cloud' as never })).toThrow();
    expect(readRunJson(p)).toEqual({ ok: true, run: null });
  });

  it('names the field of a bad run.json; a file from before the version field reads as version 1', () => {
    const p = paths();
    const { v: _, ...unversioned } = { v: 1, ...fixtureRunJson('r1', []) };
    writeFileSync(p.runJson, JSON.stringify(unversioned));
    expect(readRunJson(p)).toMatchObject({ ok: true, run: { v: 1, runId: 'r1' } });
    writeFileSync(p.runJson, JSON.stringify({ ...unversioned, config: { ...unversioned.config, modes: ['telepathy'] } }));
    expect(readRunJson(p)).toMatchObject({ ok: false, code: 'run/bad_run_json', message: expect.stringContaining('field config.modes.0') });
    writeFileSync(p.runJson, '{oops');
    expect(readRunJson(p)).toMatchObject({ ok: false, code: 'run/bad_json' });
  });
});
