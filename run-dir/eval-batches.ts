import * as z from 'zod';
import { ProviderId } from '../llm/provider-id.js';
import { JudgeView, Total } from '../protocol/index.js';

/**
 * The judge batches `parley eval --batch` submitted for this run, in run.json (`evalBatches`), so that a
 * later `parley eval --batch` — after a crash, a Ctrl-C or the next day — collects a pending batch
 * instead of submitting a second one. One entry per batch; an entry is keyed by what was judged (judge,
 * rubric, visibility, view) and names the episodes its requests cover.
 */
export const EvalBatch = z.object({
  /** The provider's batch id; null between the upload of the input file and the batch's creation. */
  id: ProviderId.nullable(),
  /** Judge spec, e.g. `openai:gpt-4`. */
  judge: z.string(),
  rubricHash: z.string(),
  visibility: z.enum(['full', 'blind']),
  view: JudgeView,
  /** The structured-output rung the requests were written for (the replies are read the same way). */
  structured: z.enum(['json_schema', 'json_object', 'prompt', 'off']),
  inputFileId: ProviderId,
  /** Requests in the input file. */
  requests: Total,
  /** The episodes the requests judge, in run order. */
  episodes: z.array(z.string()),
  createdAt: z.string(),
  /** The provider's last reported status, or `collected` once its results are in episodes.jsonl. */
  status: z.string().max(40),
  counts: z.object({ total: Total, completed: Total, failed: Total }),
  collectedAt: z.string().optional(),
  /** Which retry round (0: the first batch; 1…: a new batch for requests that failed, `--batch-retry batch`). */
  round: Total.default(0),
});
export type EvalBatch = z.infer<typeof EvalBatch>;

/** Whether `b` judges with this judge on this rubric, visibility and view. */
export const sameJudging = (b: EvalBatch, key: Pick<EvalBatch, 'judge' | 'rubricHash' | 'visibility' | 'view'>) =>
  b.judge === key.judge && b.rubricHash === key.rubricHash && b.visibility === key.visibility && b.view === key.view;
