import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRunDir, type RunDir } from '../run-dir.js';
import { validReply } from '../testing/fake-judge.js';
import { episode, mfScenario, writeRunDir } from '../testing/fixtures.js';
import { tableParquet } from './parquet.js';
import { exportTable } from './tables.js';
import { tableCsv } from './table.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** One judgement of seats a and b by `spec`, goal scores given per seat. */
function judgement(spec: string, goal: { a: number; b: number }, visibility: 'full' | 'blind' = 'full') {
  const reply = validReply(['a', 'b'], { score: (d, seat) => (d === 'goal' ? goal[seat as 'a' | 'b'] : 0) }) as { evaluations: Record<string, unknown> };
  return {
    judge: { spec, visibility, temperature: 0, promptVersion: 'p' },
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats: { a: { ok: true, scores: reply.evaluations['a'] }, b: { ok: true, scores: reply.evaluations['b'] } },
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  };
}

/** A run of two episodes judged by a panel of two judges, plus a blind variant of the first. */
async function panelRun(): Promise<RunDir> {
  const mf = mfScenario();
  const g4 = judgement('openai:gpt-4', { a: 8, b: 4 });
  const g4o = judgement('openai:gpt-4o', { a: 6, b: 5 });
  const blind = judgement('openai:gpt-4', { a: 2, b: 3 }, 'blind');
  const evaluation = { v: 1, judge: g4, variants: { 'openai:gpt-4 full': g4, 'openai:gpt-4o full': g4o, 'openai:gpt-4 blind': blind } };
  const dir = await writeRunDir(
    [mf],
    [
      episode({ scenario: mf, moves: [['a', 'speak', 'Hi, do you know Jane Doe?'], ['b', 'speak', 'Yes, "Jane", she is, well, mine.'], ['a', null]], evaluation }),
      episode({ scenario: mf, mode: 'mindreaders', moves: [['a', 'speak', 'Jane?']] }),
    ],
  );
  dirs.push(dir);
  await writeFile(
    path.join(dir, 'compare-agents-vs-mindreaders.jsonl'),
    [
      JSON.stringify({ key: 'mf-1/p/0', scenarioId: 'mf-1', episodeA: 'x', episodeB: 'y', aShownFirst: false, judge: 'openai:gpt-4', question: 'paper', ok: true, winner: 'B', reasoning: 'flows' }),
      'not json',
      '',
    ].join('\n'),
  );
  const r = await loadRunDir(dir);
  if (!r.ok) throw new Error(r.error.message);
  return r.run;
}

describe('export tables', () => {
  it('seats: a column per judge × dimension, the panel mean, the blind variant and the reasoning apart', async () => {
    const { table } = exportTable('seats', [await panelRun()]);
    const names = table.columns.map((c) => c.name);
    for (const c of ['sotopia.goal[openai:gpt-4]', 'sotopia.goal[openai:gpt-4o]', 'sotopia.goal[panel mean]', 'sotopia.goal[openai:gpt-4 blind]', 'sotopia.goal[panel mean blind]', 'sotopia.goal.reasoning[openai:gpt-4o]']) {
      expect(names).toContain(c);
    }
    expect(table.rows).toHaveLength(4);
    const cell = (row: number, column: string) => table.rows[row]![names.indexOf(column)];
    expect(cell(0, 'seat')).toBe('a');
    expect(cell(0, 'sotopia.goal[openai:gpt-4]')).toBe(8);
    expect(cell(0, 'sotopia.goal[openai:gpt-4o]')).toBe(6);
    expect(cell(0, 'sotopia.goal[panel mean]')).toBe(7);
    expect(cell(1, 'sotopia.goal[panel mean]')).toBe(4.5);
    expect(cell(0, 'sotopia.goal[panel mean blind]')).toBe(2);
    expect(cell(0, 'sotopia.goal.reasoning[openai:gpt-4o]')).toBe('a goal reasoning');
    // The unjudged episode has no score, never a 0.
    expect(cell(2, 'sotopia.goal[panel mean]')).toBeNull();
  });

  it('turns: one row per move, failed turns included and flagged by their error', async () => {
    const { table } = exportTable('turns', [await panelRun()]);
    const names = table.columns.map((c) => c.name);
    expect(table.rows).toHaveLength(4);
    const row = (i: number) => Object.fromEntries(names.map((n, j) => [n, table.rows[i]![j]]));
    expect(row(1)).toMatchObject({ turn: 1, seat: 'b', action: 'speak', text: 'Yes, "Jane", she is, well, mine.', words: 6, unparsable: false, error: null });
    expect(row(2)).toMatchObject({ turn: 2, seat: 'a', action: null, text: null, error: 'policy/failed: boom' });
    expect(row(0).private_to).toBeNull();
  });

  it('turns: a private move names the seats it was addressed to, a public one none', async () => {
    const run = await panelRun();
    const first = run.episodes[0]!.record.turns[0]!;
    first.action = { ...first.action!, to: ['b'] };
    first.to = ['a', 'b'];
    const { table } = exportTable('turns', [run]);
    const col = table.columns.findIndex((c) => c.name === 'private_to');
    expect(table.rows.map((r) => r[col])).toEqual(['b', null, null, null]);
  });

  it('verdicts: one row per verdict, an unreadable line named and left out', async () => {
    const { table, skipped } = exportTable('verdicts', [await panelRun()]);
    expect(table.rows).toHaveLength(1);
    const names = table.columns.map((c) => c.name);
    expect(table.rows[0]![names.indexOf('winner')]).toBe('B');
    expect(table.rows[0]![names.indexOf('a_shown_first')]).toBe(false);
    expect(skipped).toEqual([expect.stringContaining('compare-agents-vs-mindreaders.jsonl:2: not JSON')]);
  });

  it('Parquet holds the same rows and columns as the CSV, with their types', async () => {
    const run = await panelRun();
    for (const name of ['episodes', 'seats', 'turns', 'verdicts'] as const) {
      const { table } = exportTable(name, [run]);
      const bytes = tableParquet(table, 'parley test');
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const rows = await parquetReadObjects({ file: buffer });
      expect(rows).toHaveLength(table.rows.length);
      expect(Number(parquetMetadata(buffer).num_rows)).toBe(table.rows.length);
      expect(tableCsv(table).trimEnd().split('\r\n')[0]!.split(',').length).toBeGreaterThanOrEqual(table.columns.length);
      if (name === 'seats') {
        expect(rows[0]!['sotopia.goal[panel mean]']).toBe(7);
        expect(rows[0]!['turns']).toBe(1n);
        expect(rows[0]!['error_turns']).toBe(1n);
        expect(rows[2]!['sotopia.goal[openai:gpt-4]']).toBeNull();
      }
      if (name === 'turns') expect(rows[0]!['text']).toBe('Hi, do you know Jane Doe?');
    }
  });

  it('a table with no rows is still a typed Parquet file', async () => {
    const { table } = exportTable('verdicts', []);
    const bytes = tableParquet(table, 'parley test');
    const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    expect(Number(meta.num_rows)).toBe(0);
    expect(meta.schema.map((s) => s.name)).toContain('winner');
  });
});
