import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { appendEpisode, readEpisodes, RunPaths } from '../../run-dir/index.js';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { tempDir } from '../../test/helpers/processes.js';
import type { EpisodePlan } from '../episode-plan.js';
import { prepareResume } from './resume.js';
import { fixtureLock } from '../../run-dir/testing/held-lock.js';

const record = (episodeId: string, status: 'ok' | 'failed' = 'ok'): EpisodeRecord => ({
  episodeId, runId: 'r', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [], turns: [],
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status, startedAt: '2026-01-01T00:00:00Z', durationMs: 1,
});
const plan = (episodeId: string): EpisodePlan => ({ episodeId, scenario: openFixture(3), mode: 'agents', repeat: 0 });

describe('prepareResume', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  function setup() {
    const d = tempDir('resume');
    dirs.push(d);
    const f = new RunPaths(d.path);
    mkdirSync(f.ledgersDir, { recursive: true });
    return f;
  }

  it('repairs, compacts duplicates, and returns what is left to run; says what it did', () => {
    const f = setup();
    for (const r of [record('a'), record('b', 'failed'), record('a')]) appendEpisode(fixtureLock(f), r);
    appendFileSync(f.episodesJsonl, '{"episodeId":"c","ru');
    const log: string[] = [];
    const state = prepareResume(fixtureLock(f), ['a', 'b', 'c', 'd'].map(plan), { retryFailed: false, log: (l) => log.push(l) });
    expect(state.kept.map((r) => r.episodeId)).toEqual(['b', 'a']);
    expect(state.pending.map((p) => p.episodeId)).toEqual(['c', 'd']);
    expect(log.join('\n')).toMatch(/removed a torn last line \(20 bytes\)/);
    expect(log.join('\n')).toMatch(/1 duplicate record/);
    // The file now holds exactly the kept records.
    expect(readEpisodes(f)).toMatchObject({ badLines: [], duplicates: 0, tornBytes: 0 });
    expect(readEpisodes(f).rows.map((r) => r.record)).toEqual(state.kept);
  });

  it('--retry-failed drops failed records so they run again', () => {
    const f = setup();
    for (const r of [record('a'), record('b', 'failed')]) appendEpisode(fixtureLock(f), r);
    const state = prepareResume(fixtureLock(f), ['a', 'b'].map(plan), { retryFailed: true, log: () => {} });
    expect(state.pending.map((p) => p.episodeId)).toEqual(['b']);
    expect(readEpisodes(f).rows.map((r) => r.record.episodeId)).toEqual(['a']);
  });

  it('discards ledgers and cassettes of episodes started but never recorded, never those of recorded ones', () => {
    const f = setup();
    appendEpisode(fixtureLock(f), record('a'));
    for (const id of ['a', 'b']) {
      mkdirSync(join(f.ledgersDir, id), { recursive: true });
      writeFileSync(join(f.ledgersDir, id, 'A.jsonl'), '{}\n');
      mkdirSync(join(f.cassettesDir, id), { recursive: true });
    }
    const log: string[] = [];
    prepareResume(fixtureLock(f), ['a', 'b'].map(plan), { retryFailed: false, log: (l) => log.push(l) });
    expect(existsSync(join(f.ledgersDir, 'a', 'A.jsonl'))).toBe(true);
    expect(existsSync(join(f.cassettesDir, 'a'))).toBe(true);
    expect(existsSync(join(f.ledgersDir, 'b'))).toBe(false);
    expect(existsSync(join(f.cassettesDir, 'b'))).toBe(false);
    expect(log).toEqual([expect.stringMatching(/discarded the ledgers of 1 episode/)]);
  });
});
