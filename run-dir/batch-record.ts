import { existsSync, readFileSync } from 'node:fs';
import * as z from 'zod';
import { BatchSubmission } from './batch-submission.js';

/**
 * A command's batch record: the file `<result file>.batch.json` holding every batch the command submitted
 * for that result file, each a BatchSubmission plus the command's key (what the batch was for). One
 * format for every command that batches (compare-batches.ts, probes/probe-batches.ts), so that reading,
 * matching and writing it is written once; each command keeps its own key and its own messages.
 */

/** The record's file name for a result file (the one place it is spelled); never from a provider. */
export const batchRecordFile = (resultFile: string): string => `${resultFile}.batch.json`;

/** Why a record could not be read: not JSON, or JSON of another shape (`detail`: the first issue's path and message). */
export type BatchRecordProblem = { ok: false; problem: 'json' | 'shape'; detail: string };

/** The record format for batches keyed by `Key`: its entry schema, key match, reader and text. */
export function batchRecord<S extends z.ZodRawShape>(Key: z.ZodObject<S>) {
  const Batch = Key.extend(BatchSubmission.shape);
  type Batch = z.infer<typeof Batch>;
  const Record = z.object({ v: z.literal(1), batches: z.array(Batch) });
  const keys = Object.keys(Key.shape) as (keyof z.infer<typeof Key>)[];
  return {
    Batch,
    /** Whether `b` was submitted for `key`: every field of the key is the same. */
    same: (b: z.infer<typeof Key>, key: z.infer<typeof Key>): boolean => keys.every((k) => b[k] === key[k]),
    /** The batches recorded in `file` (none when it does not exist), or why it cannot be read. */
    read(file: string): { ok: true; batches: Batch[] } | BatchRecordProblem {
      if (!existsSync(file)) return { ok: true, batches: [] };
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        return { ok: false, problem: 'json', detail: (err as Error).message };
      }
      const parsed = Record.safeParse(json);
      if (!parsed.success) return { ok: false, problem: 'shape', detail: `${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}` };
      return { ok: true, batches: parsed.data.batches as Batch[] };
    },
    /** The record's text for these batches. */
    text: (batches: readonly Batch[]): string => JSON.stringify({ v: 1, batches }, null, 2) + '\n',
  };
}
