import * as z from 'zod';
import { batchRecord, batchRecordFile } from '../run-dir/batch-record.js';
import { writeFileAtomicSync } from '../disk/atomic-write.js';

/**
 * `<probe file>.batch.json`: the batches `parley probe --batch` submitted for one probe file, written
 * before the command waits, so that the same command run again collects a pending batch instead of
 * submitting a second one. Its path comes only from the probe file's (`--out`), never from a provider.
 */
export const probeBatchesFile = batchRecordFile;

/** What a batch asked: this run's seats, this probe, answered by this model. */
export const ProbeBatchKey = z.object({
  runDir: z.string().max(4096),
  probe: z.string().max(200),
  question: z.string().max(4000),
  /** `provider:model` that answers (the seat's own, or `--model`). */
  model: z.string().max(500),
});
export type ProbeBatchKey = z.infer<typeof ProbeBatchKey>;

const record = batchRecord(ProbeBatchKey);

export const ProbeBatch = record.Batch;
export type ProbeBatch = z.infer<typeof ProbeBatch>;

export const sameProbeBatch = record.same;

/** The batches recorded in `file` (none when it does not exist); throws naming the file when it is not a record. */
export function readProbeBatches(file: string): ProbeBatch[] {
  const read = record.read(file);
  if (read.ok) return read.batches;
  throw new Error(read.problem === 'json' ? `${file}: not JSON` : `${file}: not a probe batch record (${read.detail})`);
}

/** Replaces the entry with the same input file (or adds it), atomically. */
export function saveProbeBatch(file: string, batch: ProbeBatch): void {
  const others = readProbeBatches(file).filter((b) => b.inputFileId !== batch.inputFileId);
  writeFileAtomicSync(file, record.text([...others, batch]));
}
