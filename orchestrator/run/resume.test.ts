import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { tempDir } from '../../test/helpers/processes.js';
import type { EpisodePlan } from '../episode-plan.js';
import { prepareResume } from './resume.js';
import { RunFiles } from './run-files.js';

const record = (episodeId: string, status: 'ok' | 'failed' = 'ok'): EpisodeRecord => ({
  episodeId, runId: 'r', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [], turns: [],
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status, startedAt: '2026-01-01T00:00:00Z', durationMs: 1,
});
const plan = (episodeId: string): EpisodePlan => ({ episodeId, scenario: openFixture(3), mode: 'agents', repeat: 0 });

describe('run files: appends, torn tails, one record per episode id', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const files = () => {
    const d = tempDir('runfiles');
    dirs.push(d);
    return new RunFiles(d.path);
  };

  it('appends whole lines and reads them back', () => {
    const f = files();
    f.appendEpisode(record('a'));
    f.appendEpisode(record('b'));
    expect(readFileSync(f.episodesJsonl, 'utf8').endsWith('\n')).toBe(true);
    expect(f.readEpisodes()).toEqual({ records: [record('a'), record('b')], badLines: [], duplicates: 0 });
  });

  it('repairTail cuts a torn last line (and only that), so the next append starts on its own line', () => {
    const f = files();
    f.appendEpisode(record('a'));
    const whole = readFileSync(f.episodesJsonl, 'utf8');
    appendFileSync(f.episodesJsonl, JSON.stringify(record('b')).slice(0, 40));
    expect(f.readEpisodes().badLines).toEqual([2]);
    expect(f.repairTail()).toBe(40);
    expect(readFileSync(f.episodesJsonl, 'utf8')).toBe(whole);
    expect(f.repairTail()).toBe(0);
    f.appendEpisode(record('b'));
    expect(f.readEpisodes()).toMatchObject({ records: [record('a'), record('b')], badLines: [] });
  });

  it('repairTail empties a file holding only a torn line, and leaves a missing file alone', () => {
    const f = files();
    expect(f.repairTail()).toBe(0);
    writeFileSync(f.episodesJsonl, '{"episodeId":"x"');
    expect(f.repairTail()).toBe(16);
    expect(readFileSync(f.episodesJsonl, 'utf8')).toBe('');
  });

  it('keeps one record per episode id, the last, and counts the others', () => {
    const f = files();
    for (const r of [record('a', 'failed'), record('b'), record('a')]) f.appendEpisode(r);
    const read = f.readEpisodes();
    expect(read.duplicates).toBe(1);
    expect(read.records.map((r) => [r.episodeId, r.status])).toEqual([['b', 'ok'], ['a', 'ok']]);
  });
});

describe('prepareResume', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  function setup() {
    const d = tempDir('resume');
    dirs.push(d);
    const f = new RunFiles(d.path);
    f.ensure();
    return f;
  }

  it('repairs, compacts duplicates, and returns what is left to run; says what it did', () => {
    const f = setup();
    for (const r of [record('a'), record('b', 'failed'), record('a')]) f.appendEpisode(r);
    appendFileSync(f.episodesJsonl, '{"episodeId":"c","ru');
    const log: string[] = [];
    const state = prepareResume(f, ['a', 'b', 'c', 'd'].map(plan), { retryFailed: false, log: (l) => log.push(l) });
    expect(state.kept.map((r) => r.episodeId)).toEqual(['b', 'a']);
    expect(state.pending.map((p) => p.episodeId)).toEqual(['c', 'd']);
    expect(log.join('\n')).toMatch(/removed a torn last line \(20 bytes\)/);
    expect(log.join('\n')).toMatch(/1 duplicate record/);
    // The file now holds exactly the kept records.
    expect(f.readEpisodes()).toEqual({ records: state.kept, badLines: [], duplicates: 0 });
  });

  it('--retry-failed drops failed records so they run again', () => {
    const f = setup();
    for (const r of [record('a'), record('b', 'failed')]) f.appendEpisode(r);
    const state = prepareResume(f, ['a', 'b'].map(plan), { retryFailed: true, log: () => {} });
    expect(state.pending.map((p) => p.episodeId)).toEqual(['b']);
    expect(f.readEpisodes().records.map((r) => r.episodeId)).toEqual(['a']);
  });

  it('discards ledgers and cassettes of episodes started but never recorded, never those of recorded ones', () => {
    const f = setup();
    f.appendEpisode(record('a'));
    for (const id of ['a', 'b']) {
      mkdirSync(join(f.ledgersDir, id), { recursive: true });
      writeFileSync(join(f.ledgersDir, id, 'A.jsonl'), '{}\n');
      mkdirSync(join(f.cassettesDir, id), { recursive: true });
    }
    const log: string[] = [];
    prepareResume(f, ['a', 'b'].map(plan), { retryFailed: false, log: (l) => log.push(l) });
    expect(existsSync(join(f.ledgersDir, 'a', 'A.jsonl'))).toBe(true);
    expect(existsSync(join(f.cassettesDir, 'a'))).toBe(true);
    expect(existsSync(join(f.ledgersDir, 'b'))).toBe(false);
    expect(existsSync(join(f.cassettesDir, 'b'))).toBe(false);
    expect(log).toEqual([expect.stringMatching(/discarded the ledgers of 1 episode/)]);
  });
});
