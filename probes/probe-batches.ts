import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { BatchSubmission } from '../run-dir/batch-submission.js';
import { writeFileAtomicSync } from '../disk/atomic-write.js';

/**
 * `<probe file>.batch.json`: the batches `parley probe --batch` submitted for one probe file, written
 * before the command waits, so that the same command run again collects a pending batch instead of
 * submitting a second one. Its path comes only from the probe file's (`--out`), never from a provider.
 */
export const probeBatchesFile = (probeFile: string): string => `${probeFile}.batch.json`;

/** What a batch asked: this run's seats, this probe, answered by this model. */
export const ProbeBatchKey = z.object({
  runDir: z.string().max(4096),
  probe: z.string().max(200),
  question: z.string().max(4000),
  /** `provider:model` that answers (the seat's own, or `--model`). */
  model: z.string().max(500),
});
export type ProbeBatchKey = z.infer<typeof ProbeBatchKey>;

export const ProbeBatch = ProbeBatchKey.extend(BatchSubmission.shape);
export type ProbeBatch = z.infer<typeof ProbeBatch>;

const ProbeBatchesJson = z.object({ v: z.literal(1), batches: z.array(ProbeBatch) });

export const sameProbeBatch = (b: ProbeBatchKey, key: ProbeBatchKey) => (Object.keys(ProbeBatchKey.shape) as (keyof ProbeBatchKey)[]).every((k) => b[k] === key[k]);

/** The batches recorded in `file` (none when it does not exist); throws naming the file when it is not a record. */
export function readProbeBatches(file: string): ProbeBatch[] {
  if (!existsSync(file)) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`${file}: not JSON`);
  }
  const parsed = ProbeBatchesJson.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: not a probe batch record (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`);
  return parsed.data.batches;
}

/** Replaces the entry with the same input file (or adds it), atomically. */
export function saveProbeBatch(file: string, batch: ProbeBatch): void {
  const others = readProbeBatches(file).filter((b) => b.inputFileId !== batch.inputFileId);
  writeFileAtomicSync(file, JSON.stringify({ v: 1, batches: [...others, batch] }, null, 2) + '\n');
}
