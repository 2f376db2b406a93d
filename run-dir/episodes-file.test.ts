import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { appendEpisode, episodeLines, readEpisodes, recordsWithAppended, repairTail, rewriteEpisodes } from './episodes-file.js';
import { RunPaths } from './paths.js';
import { tempRunPaths } from './testing/temp-paths.js';
import { fixtureLock } from './testing/held-lock.js';

const record = (episodeId: string, status: 'ok' | 'failed' = 'ok'): EpisodeRecord => ({
  episodeId, runId: 'r', scenarioId: 's', pairId: 'p', repeat: 0, mode: 'agents', seats: [], turns: [],
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status, startedAt: '2026-01-01T00:00:00Z', durationMs: 1,
});
const ids = (f: RunPaths) => readEpisodes(f).rows.map((r) => r.record.episodeId);

describe('episodes.jsonl: appends, torn tails, one record per episode id', () => {
  const files = tempRunPaths('runfiles');

  it('appends whole lines and reads them back, with line numbers and raw objects', () => {
    const f = files();
    appendEpisode(fixtureLock(f), record('a'));
    appendEpisode(fixtureLock(f), record('b'));
    expect(readFileSync(f.episodesJsonl, 'utf8').endsWith('\n')).toBe(true);
    const read = readEpisodes(f);
    expect(read).toMatchObject({ badLines: [], duplicates: 0, tornBytes: 0 });
    expect(read.rows.map((r) => [r.record, r.line])).toEqual([[record('a'), 1], [record('b'), 2]]);
    expect(read.rows[0]!.raw).toEqual(JSON.parse(JSON.stringify(record('a'))));
  });

  it('a torn last line is no record and no bad line: every reader skips it and counts its bytes', () => {
    const f = files();
    appendEpisode(fixtureLock(f), record('a'));
    appendFileSync(f.episodesJsonl, JSON.stringify(record('b')).slice(0, 40));
    expect(readEpisodes(f)).toMatchObject({ badLines: [], tornBytes: 40 });
    expect(ids(f)).toEqual(['a']);
  });

  it('repairTail cuts a torn last line (and only that), so the next append starts on its own line', () => {
    const f = files();
    appendEpisode(fixtureLock(f), record('a'));
    const whole = readFileSync(f.episodesJsonl, 'utf8');
    appendFileSync(f.episodesJsonl, JSON.stringify(record('b')).slice(0, 40));
    expect(repairTail(fixtureLock(f))).toBe(40);
    expect(readFileSync(f.episodesJsonl, 'utf8')).toBe(whole);
    expect(repairTail(fixtureLock(f))).toBe(0);
    appendEpisode(fixtureLock(f), record('b'));
    expect(readEpisodes(f)).toMatchObject({ badLines: [], tornBytes: 0 });
    expect(ids(f)).toEqual(['a', 'b']);
  });

  it('repairTail empties a file holding only a torn line, and leaves a missing file alone', () => {
    const f = files();
    expect(repairTail(fixtureLock(f))).toBe(0);
    writeFileSync(f.episodesJsonl, '{"episodeId":"x"');
    expect(repairTail(fixtureLock(f))).toBe(16);
    expect(readFileSync(f.episodesJsonl, 'utf8')).toBe('');
  });

  it('keeps one record per episode id, the last, and counts the others', () => {
    const f = files();
    for (const r of [record('a', 'failed'), record('b'), record('a')]) appendEpisode(fixtureLock(f), r);
    const read = readEpisodes(f);
    expect(read.duplicates).toBe(1);
    expect(read.rows.map((r) => [r.record.episodeId, r.record.status])).toEqual([['b', 'ok'], ['a', 'ok']]);
  });

  it('reports a bad line between newlines by number and why', () => {
    const f = files();
    appendEpisode(fixtureLock(f), record('a'));
    appendFileSync(f.episodesJsonl, '{oops\n' + JSON.stringify({ ...record('c'), mode: 'telepathy' }) + '\n');
    appendEpisode(fixtureLock(f), record('b'));
    const read = readEpisodes(f);
    expect(read.badLines).toEqual([
      { line: 2, code: 'run/bad_json', message: expect.stringMatching(/^not JSON/) },
      { line: 3, code: 'run/bad_record', message: expect.stringContaining('field mode') },
    ]);
    expect(ids(f)).toEqual(['a', 'b']);
  });

  it('names a malformed evaluation by line and its own code, and keeps the episode (verbatim in raw) so a resume does not play it again', () => {
    const f = files();
    appendEpisode(fixtureLock(f), record('a'));
    const malformed = { v: 1, judge: { judge: { spec: 'openai:gpt-4' }, seats: { a: { ok: true, scores: { goal: { score: 'ten' } } } } } };
    appendFileSync(f.episodesJsonl, JSON.stringify({ ...record('c'), evaluation: malformed }) + '\n');
    const read = readEpisodes(f);
    expect(read.badLines).toEqual([{ line: 2, code: 'run/bad_evaluation', message: expect.stringContaining('field evaluation.judge') }]);
    expect(ids(f)).toEqual(['a', 'c']);
    expect(read.rows[1]!.record.evaluation).toBeUndefined();
    expect(read.rows[1]!.raw['evaluation']).toEqual(malformed);
  });

  it('rewrites atomically from raw rows: fields this version does not know survive', () => {
    const f = files();
    rewriteEpisodes(fixtureLock(f), [{ ...record('a'), futureField: { x: 1 } }]);
    expect(readEpisodes(f).rows[0]!.raw['futureField']).toEqual({ x: 1 });
  });

  it('rewrites with kept lines write what a plain rewrite writes; a replaced row object gets its new line', () => {
    const f = files();
    const lines = episodeLines();
    const rows: object[] = [record('a'), { ...record('b'), futureField: 1 }];
    rewriteEpisodes(fixtureLock(f), rows);
    const plain = readFileSync(f.episodesJsonl, 'utf8');
    rewriteEpisodes(fixtureLock(f), rows, lines);
    expect(readFileSync(f.episodesJsonl, 'utf8')).toBe(plain);
    rows[1] = { ...rows[1], evaluation: { judge: null } };
    rewriteEpisodes(fixtureLock(f), rows, lines);
    const kept = readFileSync(f.episodesJsonl, 'utf8');
    rewriteEpisodes(fixtureLock(f), rows);
    expect(kept).toBe(readFileSync(f.episodesJsonl, 'utf8'));
    expect(kept).toContain('"evaluation":{"judge":null}');
  });

  it('a read is reused only while the file is unchanged: an append, a truncation or a rewrite reads it again', () => {
    const f = files();
    appendEpisode(fixtureLock(f), record('a'));
    const first = readEpisodes(f);
    expect(readEpisodes(f, first)).toBe(first);
    appendEpisode(fixtureLock(f), record('b'));
    const second = readEpisodes(f, first);
    expect(second).not.toBe(first);
    expect(second.rows.map((r) => r.record.episodeId)).toEqual(['a', 'b']);
    // Same size, new bytes: a different id of the same length, written in place.
    writeFileSync(f.episodesJsonl, readFileSync(f.episodesJsonl, 'utf8').replace('"episodeId":"b"', '"episodeId":"c"'));
    // As a later edit's time (a kernel with coarse timestamps gives two writes within one tick the same times).
    utimesSync(f.episodesJsonl, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(readEpisodes(f, second).rows.map((r) => r.record.episodeId)).toEqual(['a', 'c']);
    rewriteEpisodes(fixtureLock(f), [record('d')]);
    expect(readEpisodes(f, second).rows.map((r) => r.record.episodeId)).toEqual(['d']);
  });

  it('recordsWithAppended gives what reading the file again gives: appended lines read back, the last of an id winning', () => {
    const f = files();
    for (const r of [record('a', 'failed'), record('b')]) appendEpisode(fixtureLock(f), r);
    const before = readEpisodes(f).rows;
    const lines = [record('a'), record('c'), { ...record('d'), mode: 'telepathy' } as unknown as EpisodeRecord].map((r) => appendEpisode(fixtureLock(f), r));
    const again = readEpisodes(f).rows.map((r) => r.record);
    expect(again.map((r) => r.episodeId)).toEqual(['b', 'a', 'c']);
    expect(recordsWithAppended(before, lines)).toEqual(again);
  });
});
