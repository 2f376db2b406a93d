import { BatchAnsweredClient } from './batch-answered-client.js';
import { batchEpisodes, batchJudgeRequests, type BatchSelection } from './batch-requests.js';
import { collectBatchOutput, reportOutput, type BatchOutput } from './batch-results.js';
import { evaluateRun, type EvaluateProgress, type EvaluateRunResult } from '../evaluate-run.js';
import type { RunDir } from '../run-dir.js';
import type { BatchApi } from '../../llm/openai-batch.js';
import { leniently } from '../../llm/structured-ladder.js';
import type { LlmClient } from '../../llm/types.js';
import { readRunJson, sameJudging, writeRunJson, type EvalBatch, type RunLock } from '../../run-dir/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { SettingsError } from '../settings-error.js';
import { MAX_RETRY_ROUNDS, type BatchFallback } from './retry.js';
import { batchApiFor, pollBatch } from './provider-batch.js';

/**
 * `parley eval --batch` for one judge: the judge requests go to the provider's Batch API in one JSONL
 * file and one batch, recorded in run.json (`evalBatches`) before anything is waited for; a later run of
 * the same command finds the batch there and collects it instead of submitting another. Collected
 * replies are judged by the live eval path (evaluateRun) through a client that answers from the batch,
 * so the records are the same as a live eval's. The caller holds the run directory's lock throughout.
 */


export interface BatchJudgeOptions extends BatchFallback {
  dir: string;
  /** The run directory's lock, held by `parley eval` for the whole wait: run.json and verdicts are written under it. */
  lock: RunLock;
  run: RunDir;
  spec: string;
  reformatClient?: LlmClient;
  selection: BatchSelection;
  missingOnly: boolean;
  onProgress?: (p: EvaluateProgress) => void;
  /** Test hook: the Batch API (default: the OpenAI SDK on the judge's endpoint). */
  api?: BatchApi;
  now?: () => Date;
}

/** What a batch judge did: the live eval's result (summed over rounds), or null when it stopped while a batch was pending. */
export interface BatchJudgeResult {
  result: EvaluateRunResult | null;
  /** Requests answered from batches / sent live (retries, reformats, failed batch requests). */
  fromBatch: number;
  live: number;
  /** Their tokens: batched ones are billed at the batch price, live ones at the full price. */
  batchUsage: { prompt: number; completion: number };
  liveUsage: { prompt: number; completion: number };
  pendingBatch?: string;
}

export async function judgeInBatches(o: BatchJudgeOptions): Promise<BatchJudgeResult> {
  const provider = batchApiFor(o.spec, o.params, o.endpoint);
  const mode = provider.structured;
  const api = o.api ?? provider.api;
  const now = o.now ?? (() => new Date());
  const paths = o.lock.paths;
  const key = { judge: o.spec, rubricHash: o.selection.rubric.hash, visibility: o.selection.visibility, view: o.selection.view };
  const out: BatchJudgeResult = { result: null, fromBatch: 0, live: 0, batchUsage: { prompt: 0, completion: 0 }, liveUsage: { prompt: 0, completion: 0 } };

  const save = (b: EvalBatch) => saveBatch(o, b);

  let episodes: string[] | null = null;
  let round = 0;
  for (;;) {
    const { runId, batches } = recordedBatches(o);
    let batch = batches.find((b) => sameJudging(b, key) && !b.collectedAt);
    if (batch) {
      o.log(`resuming batch ${terminalSafe(batch.id ?? `(input file ${batch.inputFileId})`)} recorded in run.json (${batch.requests} requests, ${batch.episodes.length} episodes): not submitting another`);
    } else {
      episodes ??= batchEpisodes(o.run, { ...o.selection, missingOnly: o.missingOnly });
      const requests = batchJudgeRequests(o.run, episodes, o.selection);
      if (!requests.length) {
        // Nothing to send (no episode, or only episodes whose scenario is missing: judged as explicit errors, with no call).
        out.result = add(out.result, await evaluateRun(o.run, evalOptions(o, o.client, episodes)));
        return out;
      }
      const jsonl = requests.map((r) => api.requestLine(r.customId, r.request)).join('\n') + '\n';
      const inputFileId = await api.upload(jsonl, `parley-judge-${runId}.jsonl`);
      batch = { id: null, ...key, structured: mode, inputFileId, requests: requests.length, episodes, createdAt: now().toISOString(), status: 'uploaded', counts: { total: requests.length, completed: 0, failed: 0 }, round };
      save(batch);
      o.log(`uploaded ${requests.length} judge requests (${episodes.length} episodes) as ${terminalSafe(inputFileId)}`);
    }
    round = batch.round;
    if (batch.id === null) {
      const created = await api.create(batch.inputFileId, { parley_run: runId.slice(0, 500), judge: o.spec.slice(0, 500) });
      batch = { ...batch, id: created.id, status: created.status, counts: created.counts.total ? created.counts : batch.counts };
      save(batch);
      o.log(`submitted batch ${terminalSafe(created.id)}; its id is in ${paths.runJson}`);
    }
    const polled = batch;
    const state = await pollBatch(api, batch.id!, { spec: o.spec, pollMs: o.pollMs, signal: o.signal, log: o.log, onChange: (st) => save({ ...polled, status: st.status, counts: st.counts }) });
    if (!state) {
      out.pendingBatch = batch.id!;
      return out;
    }
    batch = { ...batch, status: state.status, counts: state.counts };
    const requests = batchJudgeRequests(o.run, batch.episodes, o.selection);
    const sent = new Set(requests.map((r) => r.customId));
    const output = await collectBatchOutput(api, [state.outputFileId, state.errorFileId], sent);
    reportOutput(o.log, batch.id!, output);
    batch = { ...batch, counts: ownCounts(requests, output) };
    const failedEpisodes = new Set(requests.filter((r) => !output.answers.get(r.customId)?.ok).map((r) => r.episodeId));
    const again = o.retry === 'batch' && failedEpisodes.size > 0 && round < MAX_RETRY_ROUNDS && !o.signal.aborted;
    const judgeNow = again ? batch.episodes.filter((e) => !failedEpisodes.has(e)) : batch.episodes;
    if (failedEpisodes.size) o.log(`batch ${terminalSafe(batch.id!)} ended ${state.status}: requests of ${failedEpisodes.size} episodes failed or went unanswered; ${again ? 'submitting them in a new batch' : 'retrying them live'}`);
    const client = new BatchAnsweredClient(o.client, requests, output.answers, batch.structured === 'prompt' ? leniently : undefined);
    out.result = add(out.result, await evaluateRun(o.run, evalOptions(o, client, judgeNow)));
    count(out, client);
    if (o.signal.aborted) return out; // judged in part: not collected, the same command collects it again
    save({ ...batch, collectedAt: now().toISOString() });
    if (!again) return out;
    episodes = [...failedEpisodes];
    round++;
  }
}

/** The batches run.json records (a run directory without run.json has nowhere to record one: refused). */
function recordedBatches(o: BatchJudgeOptions): { runId: string; batches: EvalBatch[] } {
  const read = readRunJson(o.lock.paths);
  if (!read.ok) throw new Error(read.message);
  if (!read.run) throw new SettingsError(`--batch: ${o.dir} has no run.json to record the batch in`);
  return { runId: read.run.runId, batches: read.run.evalBatches ?? [] };
}

/** Each change is written at once: run.json is what a restarted command resumes from. */
function saveBatch(o: BatchJudgeOptions, b: EvalBatch): void {
  const paths = o.lock.paths;
  const read = readRunJson(paths);
  if (!read.ok || !read.run) throw new Error(read.ok ? `${paths.runJson}: gone` : read.message);
  const rest = (read.run.evalBatches ?? []).filter((x) => x.inputFileId !== b.inputFileId);
  writeRunJson(o.lock, { ...read.run, evalBatches: [...rest, b] });
}

/** Adds what a batch-answered client did (requests and tokens, batched and live) to the result. */
function count(out: BatchJudgeResult, client: BatchAnsweredClient): void {
  out.fromBatch += client.answered;
  out.live += client.live;
  for (const k of ['prompt', 'completion'] as const) {
    out.batchUsage[k] += client.batchUsage[k];
    out.liveUsage[k] += client.liveUsage[k];
  }
}

function evalOptions(o: BatchJudgeOptions, client: LlmClient, episodes: readonly string[]) {
  return {
    lock: o.lock,
    client,
    spec: o.spec,
    visibility: o.selection.visibility,
    view: o.selection.view,
    rubric: o.selection.rubric,
    ...(o.selection.temperature !== undefined ? { temperature: o.selection.temperature } : {}),
    ...(o.reformatClient ? { reformatClient: o.reformatClient } : {}),
    concurrency: o.concurrency,
    only: new Set(episodes),
    signal: o.signal,
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  };
}

function add(a: EvaluateRunResult | null, b: EvaluateRunResult): EvaluateRunResult {
  if (!a) return b;
  const errors = { ...a.errors };
  for (const [k, n] of Object.entries(b.errors)) errors[k] = (errors[k] ?? 0) + n;
  return {
    judged: a.judged + b.judged,
    skippedFailed: Math.max(a.skippedFailed, b.skippedFailed),
    skippedDone: Math.max(a.skippedDone, b.skippedDone),
    scoredSeats: a.scoredSeats + b.scoredSeats,
    errorSeats: a.errorSeats + b.errorSeats,
    errors,
    formatFallbacks: a.formatFallbacks + b.formatFallbacks,
  };
}

/** The counts run.json keeps: Parley's own, from the output it read, not the provider's claim. */
function ownCounts(requests: readonly { customId: string }[], output: BatchOutput): EvalBatch['counts'] {
  const answered = requests.filter((r) => output.answers.get(r.customId)?.ok).length;
  return { total: requests.length, completed: answered, failed: requests.length - answered };
}
