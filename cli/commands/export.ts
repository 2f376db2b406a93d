import path from 'node:path';
import { parseArgs } from 'node:util';
import { exportCsv } from '../../evaluator/export/csv.js';
import { exportSotopia } from '../../evaluator/export/sotopia.js';
import { loadRunDir, writeFileAtomic } from '../../evaluator/run-dir.js';

const HELP = `usage: parley export DIR --format sotopia|csv [--out FILE]
       parley export DIR… --format openai-chat|mistral-chat [options]   (fine-tuning data; --format openai-chat --help)

  --format sotopia   one JSON line per episode in SOTOPIA's EpisodeLog shape (plus its JSONL export
                     fields); default file DIR/episodes.sotopia.jsonl
  --format csv       one row per episode and seat: mode, scenario, models, turns, words per turn, task
                     metrics and every judge score present; default file DIR/episodes.csv
  --out FILE         where to write ('-' for standard output)
`;

/** \`parley export DIR --format sotopia|csv [--out FILE]\`. */
export async function run(argv: string[]): Promise<number> {
  // Fine-tuning formats have their own flags (training/; cli/commands/export-chat.ts).
  const format = argv.find((a, i) => a.startsWith('--format=') || argv[i - 1] === '--format');
  if (format && /^(--format=)?(openai|mistral)-chat$/.test(format)) return (await import('./export-chat.js')).runChatExport(argv);
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (err) {
    console.error(`parley export: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`parley export: expected one run directory, got ${positionals.length}\n\n${HELP}`);
    return 2;
  }
  if (values.format !== 'sotopia' && values.format !== 'csv') {
    console.error(`parley export: --format must be sotopia or csv${values.format ? ` (got '${values.format}')` : ''}\n\n${HELP}`);
    return 2;
  }
  const dir = positionals[0]!;
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) {
    console.error(`parley export: ${loaded.error.message}`);
    return 1;
  }
  const text = values.format === 'csv' ? exportCsv([loaded.run]) : exportSotopia([loaded.run]);
  const out = values.out ?? path.join(dir, values.format === 'csv' ? 'episodes.csv' : 'episodes.sotopia.jsonl');
  if (out === '-') {
    process.stdout.write(text);
    return 0;
  }
  await writeFileAtomic(out, text);
  console.log(`wrote ${out} (${loaded.run.episodes.length} episodes)`);
  return 0;
}
