import path from 'node:path';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';
import { exportCsv } from '../../evaluator/export/csv.js';
import { exportSotopia } from '../../evaluator/export/sotopia.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import { lockRunDir, runDirHolding, writeOutputFile } from '../run-dir-lock.js';
// The fine-tuning formats' own command line and body (training/).
import { chatSpec, runChatExport } from './export-chat.js';

/** `parley export`'s command line. */
export const spec: CommandSpec = {
  name: 'export',
  usage: 'parley export DIR --format sotopia|csv [--out FILE]   (fine-tuning data: --format openai-chat --help)',
  summary:
    "sotopia: one JSON line per episode in SOTOPIA's EpisodeLog shape (plus its JSONL export fields);\n" +
    '  default file DIR/episodes.sotopia.jsonl\n' +
    'csv: one row per episode and seat: mode, scenario, models, turns, words per turn, task metrics and\n' +
    '  every judge score present; default file DIR/episodes.csv',
  flags: {
    format: { type: 'string', metavar: 'sotopia|csv', describe: 'export format (required)' },
    out: { type: 'string', metavar: 'FILE', describe: "where to write ('-' for standard output)" },
  },
  positionals: { min: 1, max: 1, names: 'one run directory' },
};

/** Both forms of `parley export`, for help and the README check. */
export const specs: CommandSpec[] = [spec, chatSpec];

/** \`parley export DIR --format sotopia|csv [--out FILE]\`. */
export async function run(argv: string[]): Promise<number> {
  // Fine-tuning formats have their own flags (training/; cli/commands/export-chat.ts).
  const format = argv.find((a, i) => a.startsWith('--format=') || argv[i - 1] === '--format');
  if (format && /^(--format=)?(openai|mistral)-chat$/.test(format)) return runChatExport(argv);
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const { positionals } = args;
  const values = args.flags as { format?: string; out?: string };
  if (values.format !== 'sotopia' && values.format !== 'csv') {
    throw new UsageError(`--format must be sotopia or csv${values.format ? ` (got '${values.format}')` : ''}`);
  }
  const dir = positionals[0]!;
  const out = values.out ?? path.join(dir, values.format === 'csv' ? 'episodes.csv' : 'episodes.sotopia.jsonl');
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
    const text = values.format === 'csv' ? exportCsv([loaded.run]) : exportSotopia([loaded.run]);
    if (out === '-') {
      process.stdout.write(text);
      return 0;
    }
    await writeOutputFile(locked?.ok ? locked.lock : null, out, text);
    console.log(`wrote ${out} (${loaded.run.episodes.length} episodes)`);
    return 0;
  } finally {
    if (locked?.ok) locked.lock.release();
  }
}
