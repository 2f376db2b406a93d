import * as z from 'zod';
import { ProviderId } from '../llm/provider-id.js';
import { Total } from '../protocol/index.js';

/**
 * What a command records about one batch it submitted to a provider, before it waits for it: enough for
 * the same command, after a crash, a Ctrl-C or the next day, to collect that batch instead of submitting
 * a second one. Each command adds the key that says what the batch was for (compare-batches.ts,
 * probes/probe-batches.ts).
 */
export const BatchSubmission = z.object({
  /** The provider's batch id; null between the upload of the input file and the batch's creation. */
  id: ProviderId.nullable(),
  /** The structured-output rung the requests were written for (the replies are read the same way). */
  structured: z.enum(['json_schema', 'json_object', 'prompt', 'off']),
  inputFileId: ProviderId,
  /** The custom_ids in the input file. */
  customIds: z.array(z.string().max(1000)),
  createdAt: z.string().max(40),
  /** The provider's status when the batch was submitted, then when it was collected. */
  status: z.string().max(40),
  counts: z.object({ total: Total, completed: Total, failed: Total }),
  /** Set once the batch's answers are written where they belong: a collected batch is never collected again. */
  collectedAt: z.string().max(40).optional(),
  /** 0: the first batch; 1…: a new batch for the requests that failed (`--batch-retry batch`). */
  round: Total,
});
export type BatchSubmission = z.infer<typeof BatchSubmission>;
