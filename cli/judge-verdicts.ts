import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JudgeVerdict } from '../evaluator/human/summary.js';

/**
 * The LLM judge's naturalness verdicts a human study is compared with: `parley compare --judge` writes
 * them as `compare-<a>-vs-<b>.jsonl` in RUN_A. Shared by `compare --human` and `report --human`, so
 * both show the same human–judge agreement.
 */

/** The one `compare-*.jsonl` in RUN_A, if there is exactly one. */
export function judgeVerdictsNear(runA: string): string | undefined {
  if (!existsSync(runA)) return undefined;
  const files = readdirSync(runA).filter((f) => /^compare-.*\.jsonl$/.test(f));
  return files.length === 1 ? path.join(runA, files[0]!) : undefined;
}

/** The verdicts of a file (throws on an unreadable file or a line that is not JSON). */
export function readJudgeVerdicts(file: string): JudgeVerdict[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as JudgeVerdict);
}
