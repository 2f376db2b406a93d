import type { JudgeVerdict } from '../evaluator/human/summary.js';
import { listCompareVerdicts, readCompareVerdicts } from '../run-dir/index.js';

/**
 * The LLM judge's naturalness verdicts a human study is compared with: `parley compare --judge` writes
 * them as `compare-<a>-vs-<b>.jsonl` in RUN_A (run-dir/compare-verdicts.ts). Shared by `compare --human`
 * and `report --human`, so both show the same human–judge agreement.
 */

/** The one `compare-*.jsonl` in RUN_A, if there is exactly one. */
export function judgeVerdictsNear(runA: string): string | undefined {
  const files = listCompareVerdicts(runA);
  return files.length === 1 ? files[0]!.file : undefined;
}

/**
 * The verdicts of a file (throws only on an unreadable file). A line that is not JSON, or a torn tail, is
 * left out and named through `warn`, as `report` does with the same file (one rule for every reader).
 */
export function readJudgeVerdicts(file: string, warn: (line: string) => void): JudgeVerdict[] {
  const read = readCompareVerdicts(file);
  for (const b of read.badLines) warn(`${file}:${b.line}: ${b.message} (line ignored)`);
  if (read.tornBytes) warn(`${file}: torn last line (${read.tornBytes} bytes, an interrupted write) ignored`);
  return read.values as JudgeVerdict[];
}
