import path from 'node:path';
import { listCompareVerdicts, readCompareVerdicts } from '../../run-dir/compare-verdicts.js';
import type { RunDir } from '../run-dir.js';
import type { Cell, Column, Table } from './table.js';

/**
 * `parley export --table verdicts`: one row per naturalness verdict `parley compare` wrote into the run
 * (`compare-<a>-vs-<b>.jsonl`): the pair, which conversation the judge saw first, the judge, the question
 * and the winner, or the error of a pair that was not judged. A line that is not JSON is left out and
 * returned in `skipped`, for the command to say.
 */
export const VERDICT_COLUMNS: Column[] = [
  { name: 'run_id', type: 'string' },
  { name: 'file', type: 'string' },
  { name: 'mode_a', type: 'string' },
  { name: 'mode_b', type: 'string' },
  { name: 'pair', type: 'string' },
  { name: 'scenario_id', type: 'string' },
  { name: 'episode_a', type: 'string' },
  { name: 'episode_b', type: 'string' },
  { name: 'a_shown_first', type: 'bool' },
  { name: 'judge', type: 'string' },
  { name: 'question', type: 'string' },
  { name: 'winner', type: 'string' },
  { name: 'reasoning', type: 'string' },
  { name: 'error', type: 'string' },
];

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The verdicts table of the runs, and the lines left out. */
export function verdictsTable(runs: readonly RunDir[]): { table: Table; skipped: string[] } {
  const rows: Cell[][] = [];
  const skipped: string[] = [];
  for (const run of runs) {
    const runId = run.run?.runId ?? path.basename(path.resolve(run.dir));
    for (const { file, modeA, modeB } of listCompareVerdicts(run.dir)) {
      const read = readCompareVerdicts(file);
      for (const b of read.badLines) skipped.push(`${path.basename(file)}:${b.line}: ${b.message}`);
      for (const value of read.values) {
        const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
        const error = v['error'] as { code?: unknown; message?: unknown } | undefined;
        rows.push([
          runId,
          path.basename(file),
          modeA,
          modeB,
          str(v['key']),
          str(v['scenarioId']),
          str(v['episodeA']),
          str(v['episodeB']),
          typeof v['aShownFirst'] === 'boolean' ? v['aShownFirst'] : null,
          str(v['judge']),
          str(v['question']),
          v['ok'] === true ? str(v['winner']) : null,
          v['ok'] === true ? str(v['reasoning']) : null,
          error ? `${str(error.code) ?? '?'}: ${str(error.message) ?? ''}` : null,
        ]);
      }
    }
  }
  return { table: { columns: VERDICT_COLUMNS, rows }, skipped };
}
