import path from 'node:path';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';
import { exportSotopia } from '../../evaluator/export/sotopia.js';
import { exportRewards } from '../../evaluator/export/rewards.js';
import { exportTable, TABLES, type TableName } from '../../evaluator/export/tables.js';
import { tableCsv } from '../../evaluator/export/table.js';
import { tableParquet } from '../../evaluator/export/parquet.js';
import { terminalSafe } from '../../text/terminal.js';
import { packageVersion } from '../../disk/package-version.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import { lockRunDir, runDirHolding, writeOutputFile } from '../run-dir-lock.js';
// The fine-tuning formats' own command line and body (training/).
import { chatSpec, runChatExport } from './export-chat.js';

import { EXPORT_FORMATS } from './export-formats.js';

export { EXPORT_FORMATS };

/** `parley export`'s command line. */
export const spec: CommandSpec = {
  name: 'export',
  usage: 'parley export DIR --format sotopia|csv|parquet|rewards [--table episodes|seats|turns|verdicts] [--out FILE]   (fine-tuning data: --format openai-chat --help)',
  summary: `sotopia: one JSON line per episode in SOTOPIA's EpisodeLog shape (plus its JSONL export fields);
  default file DIR/episodes.sotopia.jsonl
csv, parquet: one table (--table, default episodes), default file DIR/<table>.csv or .parquet:
  episodes: one row per episode and seat: mode, scenario, models, turns, words per turn, task metrics and
    the main judge's scores (SOTOPIA-EVAL's seven, then <rubric>.<dimension> for other rubrics)
  seats: one row per episode and seat with every judge: <rubric>.<dimension>[<judge>] per judge and
    variant (blind, paper view), <rubric>.<dimension>[panel mean], and <rubric>.<dimension>.reasoning[<judge>]
  turns: one row per move: episode, turn, seat, action, text, words, private recipients, unparsable flag
  verdicts: one row per naturalness verdict of parley compare: pair, order shown, judge, winner
rewards: one JSON line per move whose seat's goal score eval --attribute split: episode, seat, turn, move,
  weight and reward (its share; a seat's rewards sum to its score); default file DIR/rewards.jsonl`,
  flags: {
    format: { type: 'string', metavar: 'sotopia|csv|parquet|rewards', describe: 'export format (required)' },
    table: { type: 'string', metavar: 'NAME', describe: `the table written as csv or parquet: ${TABLES.join(', ')} (default episodes)` },
    out: { type: 'string', metavar: 'FILE', describe: "where to write ('-' for standard output)" },
  },
  positionals: { min: 1, max: 1, names: 'one run directory' },
};

/** Both forms of `parley export`, for help and the README check. */
export const specs: CommandSpec[] = [spec, chatSpec];

/** \`parley export DIR --format sotopia|csv|parquet [--table NAME] [--out FILE]\`. */
export async function run(argv: string[]): Promise<number> {
  // Fine-tuning formats have their own flags (training/; cli/commands/export-chat.ts).
  const format = argv.find((a, i) => a.startsWith('--format=') || argv[i - 1] === '--format');
  if (format && /^(--format=)?(openai|mistral)-chat$/.test(format)) return runChatExport(argv);
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const { positionals } = args;
  const values = args.flags as { format?: string; out?: string; table?: string };
  if (values.format !== 'sotopia' && values.format !== 'csv' && values.format !== 'parquet' && values.format !== 'rewards') {
    throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}${values.format ? ` (got '${values.format}')` : ''}`);
  }
  if (values.table !== undefined && !(TABLES as readonly string[]).includes(values.table)) {
    throw new UsageError(`--table must be one of ${TABLES.join(', ')} (got '${values.table}')`);
  }
  if (values.table !== undefined && (values.format === 'sotopia' || values.format === 'rewards')) throw new UsageError(`--table is for --format csv or parquet (${values.format} writes ${values.format === 'sotopia' ? 'episodes' : 'moves'})`);
  const table = (values.table ?? 'episodes') as TableName;
  const dir = positionals[0]!;
  const out = values.out ?? path.join(dir, values.format === 'sotopia' ? 'episodes.sotopia.jsonl' : values.format === 'rewards' ? 'rewards.jsonl' : `${table}.${values.format}`);
  // Writing inside the run: take its lock (waits up to 15 s for another writer, then names it).
  const locked = out !== '-' && runDirHolding(out, [dir]) ? await lockRunDir(dir, 'export', 15_000) : null;
  if (locked && !locked.ok) {
    console.error(`parley export: ${locked.message}`);
    return 1;
  }
  try {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      console.error(`parley export: ${loaded.error.message}`);
      return 1;
    }
    let body: string | Uint8Array;
    let rows = '';
    if (values.format === 'sotopia') body = exportSotopia([loaded.run]);
    else if (values.format === 'rewards') {
      const r = exportRewards(loaded.run);
      // Seats without a split are named with their reason, never dropped silently.
      const left = Object.entries(r.leftOut).map(([why, n]) => `${why} ×${n}`);
      if (left.length) console.error(`parley export: seats left out: ${left.join(', ')}`);
      if (!r.rows) {
        console.error(`parley export: no move has a reward in ${dir}: run parley eval ${dir} --attribute first`);
        return 1;
      }
      body = r.text;
      rows = `; ${r.rows} rows, one per move of the ${r.episodes} episodes split`;
    } else {
      const { table: t, skipped } = exportTable(table, [loaded.run]);
      // Lines of a verdict file that are not JSON are left out and named, never dropped silently.
      for (const line of skipped) console.error(`parley export: ${terminalSafe(line)} (left out)`);
      body = values.format === 'csv' ? tableCsv(t) : tableParquet(t, `parley ${packageVersion()}`);
      rows = `, ${t.rows.length} rows, ${t.columns.length} columns`;
    }
    if (out === '-') {
      process.stdout.write(body);
      return 0;
    }
    await writeOutputFile(locked?.ok ? locked.lock : null, out, body);
    console.log(`wrote ${out} (${loaded.run.episodes.length} episodes${rows})`);
    return 0;
  } finally {
    if (locked?.ok) locked.lock.release();
  }
}
