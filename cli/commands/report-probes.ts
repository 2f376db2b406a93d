import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../disk/atomic-write.js';
import { accuracyCells, lastTurnCells, valueLabel } from '../../probes/accuracy.js';
import { readProbeFile } from '../../probes/probe-file.js';
import { readProbeRun } from '../../probes/probe-run.js';
import { probeSections } from '../../probes/report.js';
import { terminalSafe } from '../../text/terminal.js';
import { UsageError } from '../command.js';

/**
 * `parley report RUN --probes FILE`: belief accuracy against turn per arm (mode, or a fork's reveal), one
 * chart and table per probe, written to FOLDER (default RUN/reports/probes-<file name>) and printed.
 * Only the probe file's lines of RUN count; the others are counted and left out.
 */
export async function reportProbes(dirs: readonly string[], file: string, opts: { out?: string; seed: number }): Promise<number> {
  if (dirs.length !== 1) throw new UsageError('--probes reports one run: give one DIR');
  const run = readProbeRun(dirs[0]!);
  if (!run.ok) throw new UsageError(run.message);
  const read = readProbeFile(file);
  if (!read.ok) throw new UsageError(`--probes: ${read.message}`);
  const mine = read.records.filter((r) => r.run === run.run.runId);
  if (mine.length === 0) throw new UsageError(`--probes ${file}: no answer of run ${run.run.runId} in it (${read.records.length} line(s) of other runs)`);
  const others = read.records.length - mine.length;
  const outDir = opts.out ?? path.join(run.run.dir, 'reports', `probes-${path.basename(file).replace(/\.jsonl$/, '').replace(/[^A-Za-z0-9_.-]+/g, '_')}`);
  const sections = probeSections(mine, opts.seed);
  mkdirSync(outDir, { recursive: true });
  for (const s of sections) writeFileAtomicSync(path.join(outDir, s.chartFile), s.svg);
  const md = [`# Belief probes of run ${run.run.runId}`, '', `From ${mine.length} answer(s) in the probe file${others ? ` (${others} line(s) of other runs left out)` : ''}.`, '', ...sections.map((s) => s.markdown)].join('\n');
  const mdFile = path.join(outDir, 'probes.md');
  writeFileAtomicSync(mdFile, md);
  console.log(`belief probes of ${terminalSafe(run.run.runId)} (${mine.length} answers${others ? `; ${others} of other runs left out` : ''}):`);
  for (const c of [...accuracyCells(mine, opts.seed), ...lastTurnCells(mine, opts.seed)]) {
    const ci = c.lo === null || c.hi === null ? '' : ` [${c.lo.toFixed(2)}, ${c.hi.toFixed(2)}]`;
    console.log(terminalSafe(`  ${c.probe}  ${c.arm.padEnd(12)} ${c.turn < 0 ? 'last turn' : `turn ${String(c.turn).padStart(2)}`}  n=${c.n}  ${valueLabel(c.scorer)} ${c.value === null ? '—' : c.value.toFixed(2)}${ci}`));
  }
  console.log(`wrote ${mdFile} and ${sections.length} chart(s) in ${outDir}`);
  return 0;
}
