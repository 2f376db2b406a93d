import * as z from 'zod';
import { batchRecord, batchRecordFile } from './batch-record.js';

/**
 * `<verdicts file>.batch.json`: the batches `parley compare --batch` submitted for one verdicts file,
 * written beside it before the command waits, so that the same command — after a crash, a Ctrl-C or the
 * next day — collects a pending batch instead of submitting a second one. Its path comes only from the
 * verdicts file's (`--out` or DIR_A's default name), never from anything a provider returned.
 */

/** The record's file name for a verdicts file. */
export const compareBatchesFile = batchRecordFile;

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

const record = batchRecord(ComparisonKey);

export const CompareBatch = record.Batch;
export type CompareBatch = z.infer<typeof CompareBatch>;

/** Whether `b` belongs to the comparison `key`. */
export const sameComparison = record.same;

/** The batches recorded in `file` (none when it does not exist), or why it cannot be read. */
export function readCompareBatches(file: string): { ok: true; batches: CompareBatch[] } | { ok: false; message: string } {
  const read = record.read(file);
  if (read.ok) return read;
  return { ok: false, message: read.problem === 'json' ? `${file}: not JSON (${read.detail})` : `${file}: not a compare batch record (${read.detail})` };
}

/** The record's text for these batches. */
export const compareBatchesText = record.text;
