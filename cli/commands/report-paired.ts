import path from 'node:path';
import { UsageError } from '../command.js';
import { PAIR_BY, pairedRuns, type PairBy } from '../../evaluator/paired/paired-runs.js';
import { writePairedReport } from '../../evaluator/paired/paired-report.js';
import type { RunDir } from '../../evaluator/run-dir.js';
import { terminalSafe } from '../../text/terminal.js';
import type { Filters } from '../report-filters.js';

/** `parley report A B --paired`: the two runs pair by pair, in one report. */
export async function reportPaired(
  dirs: readonly string[],
  opts: { out?: string; by?: string; seed: number; title?: string; parent?: string; against?: string; human?: string; filters: Filters; load: (dir: string) => Promise<RunDir> },
): Promise<number> {
  if (dirs.length !== 2) throw new UsageError(`--paired compares two runs: give A and B (got ${dirs.length})`);
  if (opts.parent !== undefined || opts.against !== undefined || opts.human !== undefined) throw new UsageError('--paired is its own comparison: --parent, --against and --human are for one run\'s report');
  const by = (opts.by ?? 'episode') as PairBy;
  if (!PAIR_BY.includes(by)) throw new UsageError(`--by must be one of ${PAIR_BY.join(', ')} (got '${opts.by}')`);
  const [dirA, dirB] = dirs as [string, string];
  if (path.resolve(dirA) === path.resolve(dirB)) throw new UsageError('--paired names the same run twice: give two runs');
  const name = (d: string) => path.basename(path.resolve(d));
  const out = opts.out ?? path.join(dirA, 'reports', `paired-${name(dirB).replace(/[^A-Za-z0-9._-]+/g, '_')}`);
  if ([dirA, dirB].some((d) => path.resolve(d) === path.resolve(out))) throw new UsageError(`--out ${out} is one of the runs: the paired report would overwrite its report; name another folder`);
  const [a, b] = [await opts.load(dirA), await opts.load(dirB)];
  const comparison = pairedRuns(a, b, { a: name(dirA), b: name(dirB) }, by, opts.seed);
  const written = await writePairedReport(comparison, out, opts.title);
  const pairs = Object.entries(comparison.matched).map(([m, n]) => `${m} ${n}`).join(', ') || 'none';
  console.log(`paired report of ${terminalSafe(comparison.nameA)} against ${terminalSafe(comparison.nameB)} by ${by} (pairs: ${terminalSafe(pairs)}):\n  ${written.markdownFile}\n  ${written.htmlFile}`);
  for (const r of comparison.rows.filter((x) => x.measure.key === 'goal' || x.measure.key === 'success')) {
    const d = r.diff;
    if (d.mean === null) continue;
    const ci = d.lo !== null && d.hi !== null ? ` [${d.lo.toFixed(2)}, ${d.hi.toFixed(2)}]` : '';
    console.log(terminalSafe(`  ${r.mode} ${r.measure.label}: A − B = ${d.mean.toFixed(2)}${ci} over ${d.n} pairs, p = ${d.p === null ? '—' : d.p.toFixed(3)}`));
  }
  if (!comparison.rows.length) console.error('parley report: the two runs share no scenario with values in both: the report says so');
  return 0;
}
