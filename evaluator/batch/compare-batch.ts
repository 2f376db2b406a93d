import { BatchAnsweredClient } from './batch-answered-client.js';
import { collectBatchOutput, reportOutput, type BatchAnswer } from './batch-results.js';

import { naturalnessBatchRequests, type NaturalnessBatchRequest } from '../compare/naturalness-batch.js';
import { comparePairs, presentations, type ComparePair, type CompareResult, type CompareStyle, type Orders, type ReasoningAsk } from '../compare/naturalness.js';
import { leniently } from '../../llm/structured-ladder.js';
import { terminalSafe } from '../../text/terminal.js';
import { compareBatchesText, readCompareBatches, sameComparison, type CompareBatch, type ComparisonKey } from '../../run-dir/index.js';
import { MAX_RETRY_ROUNDS, type BatchFallback } from './retry.js';
import { batchApiFor, pollBatch } from './provider-batch.js';

/**
 * `parley compare --batch`: the first naturalness request of every presentation of every pair goes to the provider's batch
 * interface in one JSONL file and one batch, recorded beside the verdicts file
 * (`<verdicts>.batch.json`) before anything is waited for; the same command run again finds the batch
 * there and collects it instead of submitting another. Collected replies are judged by the live compare
 * path (comparePairs) through a client that answers from the batch, so verdicts have the live form and
 * what the batch could not answer — a failed or expired request, the second attempt after an unusable
 * reply — is asked live (or, with `--batch-retry batch`, failed requests go in a new batch first).
 */

/** Writes a file of the comparison (verdicts, batch record), under the run directory's lock when it lies in one. */
export type WriteFile = (file: string, text: string) => Promise<void>;

export interface CompareBatchOptions extends BatchFallback {
  key: ComparisonKey;
  /** Where the batches are recorded (compareBatchesFile of the verdicts file). */
  recordFile: string;
  pairs: readonly ComparePair[];
  style: CompareStyle;
  /** Each pair in one order or both (two requests per pair); the reasoning asked or not. */
  orders: Orders;
  reasoning: ReasoningAsk;
  seed: number;
  /**
   * Runs `fn` holding what guards the record (the run directory's lock when the record is inside one):
   * held from the look for a pending batch until its id is recorded, so two commands cannot both submit.
   */
  withWriteLock: <T>(fn: (write: WriteFile) => Promise<T>) => Promise<T>;
  onProgress?: (done: number, total: number) => void;
  now?: () => Date;
}

export interface CompareBatchResult {
  /** The comparison, or null when the command stopped while a batch was pending (or while collecting). */
  result: CompareResult | null;
  pendingBatch?: string;
  /** Requests answered from batches / sent live, and their tokens (batched ones are billed at the batch price). */
  fromBatch: number;
  live: number;
  batchUsage: { prompt: number; completion: number };
  liveUsage: { prompt: number; completion: number };
  /** Each collected batch's final status and counts (by input file), written into the record with the verdicts. */
  ended: Map<string, Pick<CompareBatch, 'status' | 'counts'>>;
}

export async function compareInBatches(o: CompareBatchOptions): Promise<CompareBatchResult> {
  const { api, structured } = batchApiFor(o.key.judge, o.params, o.endpoint);
  const now = o.now ?? (() => new Date());
  const out: CompareBatchResult = { result: null, fromBatch: 0, live: 0, batchUsage: { prompt: 0, completion: 0 }, liveUsage: { prompt: 0, completion: 0 }, ended: new Map() };
  const requests = naturalnessBatchRequests(o.pairs, presentations(o.pairs.length, o.seed, o.orders), o.style, o.reasoning);
  const byId = new Map(requests.map((r) => [r.customId, r]));
  const ownIds = idsByPair(requests);

  const pending = () => readRecord(o.recordFile).filter((b) => sameComparison(b, o.key) && !b.collectedAt).sort((x, y) => x.round - y.round);
  // Each change is written at once: the record is what a restarted command resumes from.
  const save = (b: CompareBatch, write: WriteFile) => write(o.recordFile, compareBatchesText([...readRecord(o.recordFile).filter((x) => x.inputFileId !== b.inputFileId), b]));
  const create = async (b: CompareBatch, write: WriteFile): Promise<CompareBatch> => {
    const created = await api.create(b.inputFileId, { parley_compare: `${o.key.modeA} vs ${o.key.modeB}`.slice(0, 500), judge: o.key.judge.slice(0, 500) });
    const next = { ...b, id: created.id, status: created.status, counts: created.counts.total ? created.counts : b.counts };
    await save(next, write);
    o.log(`submitted batch ${terminalSafe(created.id)}; its id is in ${o.recordFile}`);
    return next;
  };
  const submit = (subset: readonly NaturalnessBatchRequest[], round: number) =>
    o.withWriteLock(async (write) => {
      // Looked for again under the lock: the same command started twice submits once.
      const already = pending().find((b) => b.round === round);
      if (already) return already;
      const jsonl = subset.map((r) => api.requestLine(r.customId, r.request)).join('\n') + '\n';
      const inputFileId = await api.upload(jsonl, `parley-compare-${o.key.modeA}-vs-${o.key.modeB}.jsonl`);
      const b: CompareBatch = { ...o.key, id: null, structured, inputFileId, customIds: subset.map((r) => r.customId), createdAt: now().toISOString(), status: 'uploaded', counts: { total: subset.length, completed: 0, failed: 0 }, round };
      await save(b, write);
      o.log(`uploaded ${subset.length} naturalness requests (${o.pairs.length} pairs) as ${terminalSafe(inputFileId)}`);
      return create(b, write);
    });

  const batches = pending();
  if (batches.length) {
    const first = batches.at(-1)!;
    o.log(`resuming batch ${terminalSafe(first.id ?? `(input file ${first.inputFileId})`)} recorded in ${o.recordFile} (${first.customIds.length} requests): not submitting another`);
  } else {
    batches.push(await submit(requests, 0));
  }

  const answers = new Map<string, BatchAnswer>();
  for (let i = 0; i < batches.length; i++) {
    let b = batches[i]!;
    if (b.id === null) {
      const uncreated = b;
      b = await o.withWriteLock((write) => create(uncreated, write));
    }
    const state = await pollBatch(api, b.id!, { spec: o.key.judge, pollMs: o.pollMs, signal: o.signal, log: o.log });
    if (!state) {
      out.pendingBatch = b.id!;
      return out;
    }
    out.ended.set(b.inputFileId, { status: state.status, counts: state.counts });
    // Only the ids asked now count: a recorded request whose pair or text has changed since is asked live.
    const current = b.customIds.filter((id) => byId.has(id));
    if (current.length < b.customIds.length) o.log(`batch ${terminalSafe(b.id!)}: ${b.customIds.length - current.length} of its requests no longer match a pair of these runs (they changed since); those pairs are asked live`);
    const read = await collectBatchOutput(api, [state.outputFileId, state.errorFileId], new Set(current));
    reportOutput(o.log, b.id!, read);
    // A later round answers what an earlier one failed.
    for (const [id, a] of read.answers) if (!answers.get(id)?.ok) answers.set(id, a);
    const failed = current.filter((id) => !answers.get(id)?.ok);
    if (!failed.length || i < batches.length - 1) continue;
    const again = o.retry === 'batch' && b.round < MAX_RETRY_ROUNDS && !o.signal.aborted;
    o.log(`batch ${terminalSafe(b.id!)} ended ${state.status}: ${failed.length} requests failed or went unanswered; ${again ? 'submitting them in a new batch' : 'asking them live'}`);
    if (again) batches.push(await submit(failed.map((id) => byId.get(id)!), b.round + 1));
  }

  const client = new BatchAnsweredClient(o.client, requests, answers, batches[0]!.structured === 'prompt' ? leniently : undefined);
  try {
    out.result = await comparePairs(o.pairs, client, { seed: o.seed, concurrency: o.concurrency, style: o.style, orders: o.orders, reasoning: o.reasoning, signal: o.signal, clientFor: (pair) => client.forIds(ownIds.get(pair.key) ?? new Set()), ...(o.onProgress ? { onProgress: o.onProgress } : {}) });
  } catch (err) {
    if (!o.signal.aborted) throw err;
  }
  // Interrupted while collecting: no verdicts are written and the batches stay pending for the next run.
  if (o.signal.aborted) out.result = null;
  out.fromBatch = client.answered;
  out.live = client.live;
  out.batchUsage = { prompt: client.batchUsage.prompt, completion: client.batchUsage.completion };
  out.liveUsage = { prompt: client.liveUsage.prompt, completion: client.liveUsage.completion };
  return out;
}

/**
 * Marks the comparison's batches collected, with their final status and counts (the record is written
 * only under the lock, so not at every poll): called once the verdicts are written, so the next run submits afresh.
 */
export async function markCollected(recordFile: string, key: ComparisonKey, ended: CompareBatchResult['ended'], write: WriteFile, at: Date = new Date()): Promise<void> {
  const batches = readRecord(recordFile).map((b) => (sameComparison(b, key) && !b.collectedAt ? { ...b, ...ended.get(b.inputFileId), collectedAt: at.toISOString() } : b));
  await write(recordFile, compareBatchesText(batches));
}

/**
 * The custom_ids of each pair's requests (one, or two with both orders): each pair is judged from its own
 * requests only, never from another pair's that reads the same (repeats with identical dialogues).
 */
function idsByPair(requests: readonly NaturalnessBatchRequest[]): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const r of requests) ids.set(r.pairKey, (ids.get(r.pairKey) ?? new Set()).add(r.customId));
  return ids;
}

function readRecord(file: string): CompareBatch[] {
  const read = readCompareBatches(file);
  if (!read.ok) throw new Error(read.message);
  return read.batches;
}
