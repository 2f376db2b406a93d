import path from 'node:path';
import type { RunDir } from '../../evaluator/run-dir.js';
import { judgePanelLines } from '../../evaluator/report/judge-panels-markdown.js';
import { writeReport } from '../../evaluator/report/report.js';
import { againstSlug, leakPairs } from '../leak-pairs.js';

export interface AgainstOptions {
  /** Loads a run directory with the report's filters applied. */
  load: (dir: string) => Promise<RunDir>;
  /** The filters' folder name ('' without filters). */
  slug: string;
  seed: number;
  out?: string;
  title?: string;
  human?: readonly string[];
}

/**
 * `parley report LEAKY --against CORRECTED`: per pair of runs (one, or one per arm of two experiment
 * folders), LEAKY's report with the section on what the leaked answer explains, the sentences printed.
 * The report goes to its own folder, LEAKY/reports/against-<CORRECTED>[_<filters>] (or --out, per arm
 * --out/<arm>), so it never replaces the run's own report.
 */
export async function reportAgainst(leakyDir: string, correctedDir: string, opts: AgainstOptions): Promise<number> {
  const pairs = leakPairs(leakyDir, correctedDir);
  if (!pairs.ok) throw new Error(pairs.message);
  for (const pair of pairs.pairs) {
    const leaky = await opts.load(pair.leaky);
    const corrected = await opts.load(pair.corrected);
    if (leaky.episodes.length === 0) throw new Error(`no episode matches ${opts.slug || 'the filters'} in ${pair.leaky}`);
    const folder = [againstSlug(pair.leaky, pair.corrected), opts.slug].filter(Boolean).join('_');
    const outDir = opts.out ? (pair.arm ? path.join(opts.out, pair.arm) : opts.out) : path.join(pair.leaky, 'reports', folder);
    const title = opts.title ?? `Parley report: ${path.basename(path.resolve(leakyDir))} against ${path.basename(path.resolve(correctedDir))}${pair.arm ? ` (arm ${pair.arm})` : ''}`;
    const result = await writeReport([leaky], { outDir, seed: opts.seed, title, against: corrected, ...(opts.human ? { human: opts.human } : {}) });
    if (pair.arm) console.log(`arm ${pair.arm}:`);
    for (const sentence of result.leak?.sentences ?? []) console.log(sentence);
    console.log(`report of ${result.episodes} episodes:\n  ${result.markdownFile}\n  ${result.htmlFile}\n  ${result.chartFiles.length} charts in ${path.join(outDir, 'charts')}/`);
    for (const line of judgePanelLines(result.panels)) console.log(line);
  }
  return 0;
}
