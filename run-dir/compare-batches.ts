import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { BatchSubmission } from './batch-submission.js';

/**
 * `<verdicts file>.batch.json`: the batches `parley compare --batch` submitted for one verdicts file,
 * written beside it before the command waits, so that the same command — after a crash, a Ctrl-C or the
 * next day — collects a pending batch instead of submitting a second one. Its path comes only from the
 * verdicts file's (`--out` or DIR_A's default name), never from anything a provider returned.
 */

/** The record's file name for a verdicts file (the one place it is spelled). */
export function compareBatchesFile(verdictsFile: string): string {
  return `${verdictsFile}.batch.json`;
}

/** What a comparison is: the same command (runs, modes, judge, question, seed) finds its batches by these. */
export const ComparisonKey = z.object({
  judge: z.string().max(500),
  question: z.enum(['paper', 'parley']),
  seed: z.number().int(),
  /** The two run directories, as absolute paths. */
  runA: z.string().max(4096),
  runB: z.string().max(4096),
  modeA: z.string().max(40),
  modeB: z.string().max(40),
});
export type ComparisonKey = z.infer<typeof ComparisonKey>;

export const CompareBatch = ComparisonKey.extend(BatchSubmission.shape);
export type CompareBatch = z.infer<typeof CompareBatch>;

const CompareBatchesJson = z.object({ v: z.literal(1), batches: z.array(CompareBatch) });

/** Whether `b` belongs to the comparison `key`. */
export const sameComparison = (b: ComparisonKey, key: ComparisonKey) => (Object.keys(ComparisonKey.shape) as (keyof ComparisonKey)[]).every((k) => b[k] === key[k]);

/** The batches recorded in `file` (none when it does not exist), or why it cannot be read. */
export function readCompareBatches(file: string): { ok: true; batches: CompareBatch[] } | { ok: false; message: string } {
  if (!existsSync(file)) return { ok: true, batches: [] };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return { ok: false, message: `${file}: not JSON (${(err as Error).message})` };
  }
  const parsed = CompareBatchesJson.safeParse(json);
  if (!parsed.success) return { ok: false, message: `${file}: not a compare batch record (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})` };
  return { ok: true, batches: parsed.data.batches };
}

/** The record's text for these batches. */
export function compareBatchesText(batches: readonly CompareBatch[]): string {
  return JSON.stringify({ v: 1, batches }, null, 2) + '\n';
}
