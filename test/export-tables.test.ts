import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { clScenario, episode, mfScenario, openScenario, writeRunDir } from '../evaluator/testing/fixtures.js';
import { agreedDealOr, judgeCliSuite, judgeInRange } from './helpers/judge-cli-suite.js';
import { parseCsv } from '../evaluator/testing/parse-csv.js';

/**
 * Issue 38, contract 1, as a user meets it: a run judged by a 2-judge panel (`parley eval` with two
 * `--judge`, the real openai SDK against the fake server), then `export --table seats|turns` as CSV and
 * as Parquet, read back with a Node Parquet reader (hyparquet).
 */
// gpt-4 gives every dimension its maximum for seat a, the minimum + 1 for b; gpt-4o one point lower for a.
const suite = judgeCliSuite(
  'parley-export-tables-',
  agreedDealOr((req) => {
    const lower = req.body.model === 'gpt-4o' ? 1 : 0;
    return judgeInRange((_d, seat, min, max) => (seat === 'a' ? max - lower : min + 1))(req);
  }),
);
const run = suite.cli;
let dir: string;

async function readParquet(file: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(file);
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
}

beforeAll(async () => {
  const [mf, cl, op] = [mfScenario(), clScenario(), openScenario()];
  dir = suite.keep(
    await writeRunDir(
      [mf, cl, op],
      [
        episode({ scenario: op, moves: [['a', 'speak', 'I am moving to Lisbon, "soon".'], ['b', 'speak', 'Oh!\nCan you lend me money?'], ['a', 'leave', '']] }),
        episode({ scenario: mf, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] }),
        episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal.']] }),
      ],
    ),
  );
});

describe('export --table seats|turns on a run judged by a 2-judge panel (issue 38, contract 1)', () => {
  it('has a column per judge × dimension and a panel mean; turns has one row per move; Parquet reads back the same', async () => {
    const ev = await run(['eval', dir, '--judge', 'openai:gpt-4', '--judge', 'openai:gpt-4o']);
    expect(ev.code, ev.stderr).toBe(0);

    const seatsCsv = path.join(dir, 'seats.csv');
    const ex = await run(['export', dir, '--table', 'seats', '--format', 'csv']);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).toContain(`wrote ${seatsCsv} (3 episodes, 6 rows,`);
    const [header, ...rows] = parseCsv(readFileSync(seatsCsv, 'utf8'));
    expect(rows).toHaveLength(6);
    const col = (n: string) => header!.indexOf(n);
    for (const d of ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal']) {
      for (const j of ['openai:gpt-4', 'openai:gpt-4o', 'panel mean']) expect(col(`sotopia.${d}[${j}]`), `${d} ${j}`).toBeGreaterThan(-1);
      expect(col(`sotopia.${d}.reasoning[openai:gpt-4]`)).toBeGreaterThan(-1);
    }
    const a = rows[0]!;
    expect(a[col('seat')]).toBe('a');
    expect([a[col('sotopia.goal[openai:gpt-4]')], a[col('sotopia.goal[openai:gpt-4o]')], a[col('sotopia.goal[panel mean]')]]).toEqual(['10', '9', '9.5']);

    const turnsCsv = path.join(dir, 'turns.csv');
    expect((await run(['export', dir, '--table', 'turns', '--format', 'csv'])).code).toBe(0);
    const [turnHeader, ...turnRows] = parseCsv(readFileSync(turnsCsv, 'utf8'));
    expect(turnRows).toHaveLength(7);
    for (const c of ['episode_id', 'turn', 'seat', 'action', 'text', 'words', 'private_to', 'unparsable']) expect(turnHeader).toContain(c);
    expect(turnRows[1]![turnHeader!.indexOf('text')]).toBe('Oh!\nCan you lend me money?');

    for (const table of ['seats', 'turns'] as const) {
      const file = path.join(dir, `${table}.parquet`);
      const p = await run(['export', dir, '--table', table, '--format', 'parquet']);
      expect(p.code, p.stderr).toBe(0);
      const back = await readParquet(file);
      expect(back).toHaveLength(table === 'seats' ? 6 : 7);
      if (table === 'seats') {
        expect(back[0]!['sotopia.goal[panel mean]']).toBe(9.5);
        expect(Object.keys(back[0]!)).toEqual(header);
      } else {
        expect(back[1]!['text']).toBe('Oh!\nCan you lend me money?');
        expect(back[1]!['words']).toBe(6n);
      }
    }
  });

  it('refuses an unknown table or a table with --format sotopia, writing nothing', async () => {
    const bad = await run(['export', dir, '--table', 'moves', '--format', 'csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--table must be one of episodes, seats, turns, verdicts (got 'moves')");
    const sot = await run(['export', dir, '--table', 'turns', '--format', 'sotopia']);
    expect(sot.code).toBe(2);
  });
});
