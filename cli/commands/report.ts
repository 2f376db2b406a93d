import { parseCommand, UsageError, type CommandSpec } from '../command.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { writeReport } from '../../evaluator/report/report.js';

/** `parley report`'s command line. */
export const spec: CommandSpec = {
  name: 'report',
  usage: 'parley report DIR... [options]',
  summary:
    'Writes report.md, report.html and charts/*.svg: success, turns and words per turn by mode (with 95%\n' +
    'bootstrap CIs), judge scores when present, paired gaps between modes with a permutation test, the\n' +
    "paper's figures, and a simulation card. Several run directories are combined into one report.",
  flags: {
    out: { type: 'string', metavar: 'DIR', describe: 'where to write the report (default: the run directory itself)' },
    seed: { type: 'number', describe: 'seed of the bootstrap and permutation resampling (default 1)' },
    title: { type: 'string', metavar: 'TEXT', describe: 'report title' },
  },
  positionals: { min: 1, max: Infinity, names: 'one or more run directories' },
};

/** \`parley report DIR... [--out DIR]\`. */
export async function run(argv: string[]): Promise<number> {
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const { positionals } = args;
  const values = args.flags as { out?: string; seed?: number; title?: string };
  const seed = values.seed ?? 1;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got ${seed})`);
  const runs: RunDir[] = [];
  for (const dir of positionals) {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      console.error(`parley report: ${loaded.error.message}`);
      return 1;
    }
    runs.push(loaded.run);
  }
  const result = await writeReport(runs, { outDir: values.out ?? positionals[0]!, seed, ...(values.title ? { title: values.title } : {}) });
  console.log(`report of ${result.episodes} episodes:\n  ${result.markdownFile}\n  ${result.htmlFile}\n  ${result.chartFiles.length} charts in ${result.chartFiles[0] ? result.chartFiles[0].replace(/[^/]+$/, '') : ''}`);
  return 0;
}
