import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempRunPaths } from './testing/temp-paths.js';
import { readRunJson, RUN_JSON_VERSION, writeRunJson } from './run-json.js';
import { fixtureRunJson } from './testing/fixture.js';
import { fixtureLock } from './testing/held-lock.js';

describe('run.json: one schema to write and to read it back', () => {
  const paths = tempRunPaths('runjson');

  it('writes the version and reads back what it wrote, fields it does not know included', () => {
    const p = paths();
    const written = writeRunJson(fixtureLock(p), { ...fixtureRunJson('r1', ['s1']), experiment: { name: 'later field' } });
    expect(JSON.parse(readFileSync(p.runJson, 'utf8')).v).toBe(RUN_JSON_VERSION);
    const read = readRunJson(p);
    expect(read).toEqual({ ok: true, run: written });
    expect(read.ok && read.run?.['experiment']).toEqual({ name: 'later field' });
  });

  it("types the summary error's code by the registry: an own code outside it is refused on write and on read", () => {
    const p = paths();
    const ended = { stats: null, summaryError: { code: 'run/summary_failed' as const, message: 'disk full' } };
    expect(writeRunJson(fixtureLock(p), { ...fixtureRunJson('r1', []), ...ended }).summaryError?.code).toBe('run/summary_failed');
    expect(() => writeRunJson(fixtureLock(p), { ...fixtureRunJson('r1', []), summaryError: { code: 'run/made_up' as never, message: 'x' } })).toThrow();
    writeFileSync(p.runJson, JSON.stringify({ v: 1, ...fixtureRunJson('r1', []), summaryError: { code: 'run/made_up', message: 'x' } }));
    expect(readRunJson(p)).toMatchObject({ ok: false, code: 'run/bad_run_json' });
  });

  it('types the recorded settings its readers use (protocol, judge view, rubric, leak targets): a malformed one names its field', () => {
    const p = paths();
    const config = { ...fixtureRunJson('r1', []).config, protocol: 'paper' as const, judgeView: 'paper' as const, rubric: 'goal', leakJudgeOnly: ['script' as const] };
    const written = writeRunJson(fixtureLock(p), { ...fixtureRunJson('r1', []), config });
    const read = readRunJson(p);
    expect(read.ok && read.run?.config).toMatchObject({ protocol: 'paper', judgeView: 'paper', rubric: 'goal', leakJudgeOnly: ['script'] });
    expect(read).toEqual({ ok: true, run: written });
    for (const [field, value] of [['judgeView', 'sotopia'], ['protocol', 'telepathy'], ['leakJudgeOnly', 'script'], ['rubric', 3]] as const) {
      writeFileSync(p.runJson, JSON.stringify({ ...written, config: { ...config, [field]: value } }));
      expect(readRunJson(p)).toMatchObject({ ok: false, code: 'run/bad_run_json', message: expect.stringContaining(`field config.${field}`) });
    }
  });

  it('refuses to write a run.json its readers could not read', () => {
    const p = paths();
    expect(() => writeRunJson(fixtureLock(p), { ...fixtureRunJson('r1', []), hosting: 'cloud' as never })).toThrow();
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

describe('run.json totals at the paper grid and beyond (issue 28)', () => {
  const paths = tempRunPaths('runjson-scale');
  // The paper's grid: 2,700 episodes; one arm alone used about 17 million prompt tokens.
  const gridStats = (prompt: number) => ({
    episodes: { total: 2700, ok: 2700, failed: 0 },
    byMode: { agents: { episodes: 900, ok: 900, failed: 0, task: { episodes: 0, success: 0, rate: null } } },
    terminations: { max_turns: 2700 },
    recoveries: { seats: 0, episodes: 0 },
    retries: 12_345,
    repairs: { lenient: 0, reformat: 0 },
    formatFallbacks: { rejected: 0, jsonMode: 0, prompt: 0 },
    usage: { 'openai:gpt-3.5-turbo-0613': { prompt, completion: 2_000_000, cached: 0, calls: 60_000 } },
    cost: { usd: 455.2, unpriced: [] },
  });

  it('writes and reads back totals of tens of millions, and 10^15, of tokens', () => {
    for (const prompt of [17_100_000, 34_000_000, 1e15]) {
      const p = paths();
      writeRunJson(fixtureLock(p), { ...fixtureRunJson('grid', ['s1']), endedAt: '2026-01-01T00:00:00.000Z', stats: gridStats(prompt) });
      const read = readRunJson(p);
      expect(read.ok && read.run?.stats?.usage['openai:gpt-3.5-turbo-0613']?.prompt).toBe(prompt);
    }
  });

  it('keeps only the bound JSON itself needs: integers past 2^53 are not exact once written', () => {
    const p = paths();
    expect(() => writeRunJson(fixtureLock(p), { ...fixtureRunJson('grid', []), endedAt: 'x', stats: gridStats(2 ** 53 + 2) })).toThrow();
  });

  it('records a summary that failed, with a code, beside the ended run', () => {
    const p = paths();
    writeRunJson(fixtureLock(p), { ...fixtureRunJson('grid', []), endedAt: 'x', stats: null, summaryError: { code: 'run/summary_failed', message: 'disk full' } });
    expect(readRunJson(p)).toMatchObject({ ok: true, run: { summaryError: { code: 'run/summary_failed' } } });
  });
});
