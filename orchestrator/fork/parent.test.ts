import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, type EpisodeRecord } from '../../protocol/index.js';
import { writeRunJson, writeRunScenarios, type RunPaths } from '../../run-dir/index.js';
import { fixtureRunJson } from '../../run-dir/testing/fixture.js';
import { tempRunPaths } from '../../run-dir/testing/temp-paths.js';
import { mutualFriendsFixture } from '../../test/fixtures/scenarios.js';
import { playedTurns, readForkParent } from './parent.js';
import { fixtureLock } from '../../run-dir/testing/held-lock.js';

const scenario = mutualFriendsFixture();
const record = (over: Partial<EpisodeRecord> = {}): EpisodeRecord => ({
  episodeId: 'ep-1', runId: 'R', scenarioId: scenario.id, pairId: scenario.pairId, repeat: 0, mode: 'agents',
  seats: scenario.seats.map((s) => ({ seat: s.seat, character: s.character.name, pid: 1, policy: 'bot', live: true })),
  turns: [0, 1, 2].map((turn) => ({ turn, seat: turn % 2 ? 'B' : 'A', action: { type: 'speak', argument: 'hi' }, atMs: turn })),
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2024-01-01T00:00:00.000Z', durationMs: 1,
  ...over,
});

/** A parent run directory with these records, and ledgers for the episodes named in `ledgers`. */
function parentDir(paths: RunPaths, records: EpisodeRecord[], ledgers: string[] = records.map((r) => r.episodeId)): string {
  writeRunJson(fixtureLock(paths), fixtureRunJson('R', [scenario.id], { config: { out: paths.dir, scenarios: 'builtin', modes: ['agents'], seed: 1, maxTurns: 8 } }));
  writeRunScenarios(fixtureLock(paths), [scenario]);
  writeFileSync(paths.episodesJsonl, records.map((r) => JSON.stringify(r) + '\n').join(''));
  for (const ep of ledgers) {
    for (const s of scenario.seats) {
      mkdirSync(dirname(paths.ledgerFile(ep, s.seat)), { recursive: true });
      writeFileSync(paths.ledgerFile(ep, s.seat), '');
    }
  }
  return paths.dir;
}

describe('readForkParent: the parent of a fork, from untrusted files', () => {
  const fresh = tempRunPaths('fork-parent');

  it('reads the run, the episode, its scenario, and checks its ledgers', () => {
    const dir = parentDir(fresh(), [record()]);
    const read = readForkParent(dir, 'ep-1');
    if (!read.ok) throw new Error(read.message);
    expect(read.parent).toMatchObject({ runId: 'R', record: { episodeId: 'ep-1' }, scenario: { id: scenario.id }, config: { maxTurns: 8 } });
  });

  it('takes a part of an episode id only one episode has, as parley show does, and names the episodes a shared part matches', () => {
    const dir = parentDir(fresh(), [record(), record({ episodeId: 'ep-22' })], ['ep-1', 'ep-22']);
    const read = readForkParent(dir, 'p-1');
    if (!read.ok) throw new Error(read.message);
    expect(read.parent.record.episodeId).toBe('ep-1');
    expect(readForkParent(dir, 'ep-')).toMatchObject({ ok: false, message: expect.stringContaining('"ep-" matches 2 episodes (ep-1, ep-22); give more of the id') });
  });

  it('refuses, in one line, a directory that is no run, an unknown episode, a script episode, missing ledgers, unsafe ids', () => {
    const empty = fresh();
    mkdirSync(empty.dir, { recursive: true });
    expect(readForkParent(empty.dir, 'ep-1')).toMatchObject({ ok: false, message: expect.stringContaining('is not a run directory (no run.json)') });
    const dir = parentDir(fresh(), [record(), record({ episodeId: 'sc', mode: 'script' }), record({ episodeId: '../../evil' }), record({ episodeId: 'bare' })], ['ep-1', 'sc']);
    expect(readForkParent(dir, 'nope')).toMatchObject({ ok: false, message: expect.stringContaining('has no episode "nope"') });
    expect(readForkParent(dir, '../ep-1')).toMatchObject({ ok: false, message: expect.stringContaining('has no episode "../ep-1"') });
    expect(readForkParent(dir, 'sc')).toMatchObject({ ok: false, message: expect.stringContaining('script-mode episode') });
    expect(readForkParent(dir, '../../evil')).toMatchObject({ ok: false, message: expect.stringContaining('is not a safe name') });
    expect(readForkParent(dir, 'bare')).toMatchObject({ ok: false, message: expect.stringContaining('keeps no ledger for seat A of episode bare') });
    for (const r of [readForkParent(dir, 'nope'), readForkParent(dir, 'bare')]) expect(r.ok ? '' : r.message).not.toContain('\n');
  });

  it('playedTurns: the leading turns with a move (a failed turn cannot be replayed)', () => {
    expect(playedTurns(record())).toBe(3);
    const failed = record({ turns: [...record().turns.slice(0, 2), { turn: 2, seat: 'A', action: null, error: { code: ErrorCode.DeadlineMissed, message: 'late' }, atMs: 2 }] });
    expect(playedTurns(failed)).toBe(2);
  });
});
