import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseAnnotations } from '../../evaluator/human/annotation.js';
import { humanSummaryLines, summariseHuman } from '../../evaluator/human/summary.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { writeReport } from '../../evaluator/report/report.js';

const HELP = `usage: parley report DIR... [options]

Writes report.md, report.html and charts/*.svg: success, turns and words per turn by mode (with 95%
bootstrap CIs), judge scores when present, paired gaps between modes with a permutation test, the
paper's figures, and a simulation card. Several run directories are combined into one report.

options:
  --out DIR     where to write the report (default: the first run directory)
  --seed N      seed of the bootstrap and permutation resampling (default 1)
  --title TEXT  report title
  --human FILE  add the human naturalness study of \`parley annotate\` (win rates, kappa) as a section
`;

/** \`parley report DIR... [--out DIR]\`. */
export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { out: { type: 'string' }, seed: { type: 'string', default: '1' }, title: { type: 'string' }, human: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (err) {
    console.error(`parley report: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(`parley report: name at least one run directory\n\n${HELP}`);
    return 2;
  }
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) {
    console.error(`parley report: --seed must be an integer (got '${values.seed}')`);
    return 2;
  }
  const runs: RunDir[] = [];
  for (const dir of positionals) {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      console.error(`parley report: ${loaded.error.message}`);
      return 1;
    }
    runs.push(loaded.run);
  }
  let human: string[] | undefined;
  if (values.human) {
    let text: string;
    try {
      text = readFileSync(values.human, 'utf8');
    } catch (err) {
      console.error(`parley report: cannot read --human ${values.human}: ${(err as Error).message}`);
      return 1;
    }
    const { annotations, bad } = parseAnnotations(text);
    for (const b of bad) console.error(`parley report: ${values.human}:${b.line}: ${b.message} (line ignored)`);
    human = humanSummaryLines(summariseHuman(annotations, null));
  }
  const result = await writeReport(runs, { outDir: values.out ?? positionals[0]!, seed, ...(values.title ? { title: values.title } : {}), ...(human ? { human } : {}) });
  if (human) for (const l of human) console.log(l);
  console.log(`report of ${result.episodes} episodes:\n  ${result.markdownFile}\n  ${result.htmlFile}\n  ${result.chartFiles.length} charts in ${result.chartFiles[0] ? result.chartFiles[0].replace(/[^/]+$/, '') : ''}`);
  return 0;
}
