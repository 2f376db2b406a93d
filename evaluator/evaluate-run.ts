import type { LlmClient } from '../llm/types.js';
import { judgeVariant, judgeVariants, readEvaluation, withJudgement, type EpisodeJudgement, type Evaluation, type JudgeVisibility } from './evaluation.js';
import { judgeEpisode, type JudgeOptions } from './judge/judge.js';
import { appendJudgement, clearJudgementJournal, episodeLines, rewriteEpisodes, type RunLock } from '../run-dir/index.js';
import type { RunDir } from './run-dir.js';
import { countSeatFailures, type SeatFailures } from './seat-failures.js';
import type { Rubric } from './rubric/rubric.js';
import { CheckpointSpacing } from './checkpoint-spacing.js';

/** What `judgeEpisode` is given (the judge, its view, rubric and sampling: JudgeOptions), and how the run is walked. */
export interface EvaluateRunOptions extends JudgeOptions {
  /** The run directory's lock, held from before `run` was loaded until this returns (see below). */
  lock: RunLock;
  /** Episodes judged at once. */
  concurrency: number;
  /** Only episodes without judge scores from this judge, or with an evaluation error (resume). */
  missingOnly?: boolean;
  /** Only these episodes (the episodes of a collected batch); the others are left as they are, uncounted. */
  only?: ReadonlySet<string>;
  /** Rewrite `episodes.jsonl` after this many newly judged episodes (and at the end)… */
  checkpointEvery?: number;
  /**
   * …and no sooner than this long after the previous rewrite (default 2 s), nor than REWRITE_SPACING times
   * the previous rewrite's duration (checkpoint-spacing.ts). Each rewrite writes the whole file, so with a fast judge (a cache, a
   * local server) a run of thousands of episodes spent most of its time rewriting (1,350 paper episodes:
   * 68 rewrites of the whole file, 2 of its 8 s). A crash loses nothing: the journal holds every judgement.
   */
  checkpointMs?: number;
  onProgress?: (p: EvaluateProgress) => void;
  /** Stop: no episode is started after it fires; the ones being judged finish and are recorded. */
  signal?: AbortSignal;
  /** Abandon: the calls in flight are cut short and their episodes are left unjudged (a stop's bound ran out). */
  abandon?: AbortSignal;
}

export interface EvaluateProgress {
  done: number;
  total: number;
  /** Seats with scores / with an evaluation error so far. */
  scoredSeats: number;
  errorSeats: number;
  lastEpisode: string;
  /** Judge tokens used so far by this invocation (for the running cost estimate). */
  usage: { prompt: number; completion: number };
}

export interface EvaluateRunResult extends SeatFailures {
  judged: number;
  /** Failed episodes are not judged: their transcripts are cut short and the report excludes them. */
  skippedFailed: number;
  skippedDone: number;
  scoredSeats: number;
  /** Judge calls that fell back down the structured-output ladder. */
  formatFallbacks: number;
}

/**
 * Whether `--missing` leaves the record to this judge's earlier work: it scored every seat without error,
 * or it judged a draw that the selection rule has since superseded (`run --redraw` re-drew it because it
 * could not be scored: judging it again would be paying twice for an episode that no longer counts).
 */
export function alreadyDone(evaluation: Evaluation | null, spec: string, visibility: JudgeVisibility, rubric: Rubric | undefined, selection?: { status?: string }): boolean {
  const j = judgeVariants(evaluation).get(judgeVariant({ spec, visibility, rubric }));
  if (j && selection?.status === 'superseded') return true;
  return !!j && Object.values(j.seats).every((s) => s.ok);
}

/**
 * Judges every episode of a run directory and stores the result in each record's `evaluation.judge`,
 * rewriting `DIR/episodes.jsonl` atomically (temp file + rename) at checkpoints and at the end. The
 * caller holds the run directory's lock (run-dir/lock.ts) from before loading until this returns, so no
 * writer appends between the read and a rewrite.
 */
export async function evaluateRun(run: RunDir, opts: EvaluateRunOptions): Promise<EvaluateRunResult> {
  const result: EvaluateRunResult = { judged: 0, skippedFailed: 0, skippedDone: 0, scoredSeats: 0, errorSeats: 0, errors: {}, formatFallbacks: 0 };
  const todo: number[] = [];
  run.episodes.forEach((e, i) => {
    if (opts.only && !opts.only.has(e.record.episodeId)) return;
    if (e.record.status === 'failed') result.skippedFailed++;
    else if (opts.missingOnly && alreadyDone(readEvaluation(e.record.evaluation), opts.spec, opts.visibility, opts.rubric, e.record.selection)) result.skippedDone++;
    else todo.push(i);
  });
  const checkpointEvery = opts.checkpointEvery ?? 20;
  const checkpointMs = opts.checkpointMs ?? 2_000;
  let sinceCheckpoint = 0;
  // One synchronous step: the file then holds every judgement so far, so the journal can go. A row judged
  // since the last rewrite is a new object (below); the others' lines are those of the last rewrite.
  const lines = episodeLines();
  // The next rewrite waits at least REWRITE_SPACING times as long as the last one took (checkpoint-spacing.ts).
  const spacing = new CheckpointSpacing(checkpointMs, () => performance.now());
  const checkpoint = () =>
    spacing.rewrite(() => {
      rewriteEpisodes(opts.lock, run.episodes.map((e) => e.raw), lines);
      clearJudgementJournal(opts.lock);
    });
  // Judgements a stopped eval left in the journal (already applied by loadRunDir) go into the file first.
  if (run.journalled) checkpoint();
  let next = 0;
  const usage = { prompt: 0, completion: 0 };
  const worker = async () => {
    while (next < todo.length) {
      if (opts.signal?.aborted) return;
      const index = todo[next++]!;
      const loaded = run.episodes[index]!;
      const record = loaded.record;
      let judgement: EpisodeJudgement;
      try {
        // Stopping (`signal`) lets this call finish; only `abandon` cuts it short, and then it is not recorded.
        judgement = await judgeEpisode(record, run.scenarios.get(record.scenarioId), { ...opts, client: clientFor(opts.client, record.episodeId), ...(opts.abandon ? { signal: opts.abandon } : {}) });
      } catch (err) {
        if (opts.abandon?.aborted) return;
        throw err;
      }
      if (opts.abandon?.aborted) return;
      const previous = readEvaluation(record.evaluation);
      // A judge variant is added next to the others (a blind judge never replaces the full one).
      const evaluation: Evaluation = withJudgement(previous, judgement);
      record.evaluation = evaluation;
      loaded.raw = { ...loaded.raw, evaluation };
      // Durable now: whatever stops this process next, the judgement is on disk.
      appendJudgement(opts.lock, { episodeId: record.episodeId, evaluation });
      result.judged++;
      result.formatFallbacks += judgement.formatFallbacks ?? 0;
      usage.prompt += judgement.usage.prompt;
      usage.completion += judgement.usage.completion;
      result.scoredSeats += countSeatFailures(result, Object.values(judgement.seats));
      opts.onProgress?.({ done: result.judged, total: todo.length, scoredSeats: result.scoredSeats, errorSeats: result.errorSeats, lastEpisode: record.episodeId, usage: { ...usage } });
      if (++sinceCheckpoint >= checkpointEvery && spacing.due()) {
        sinceCheckpoint = 0;
        checkpoint();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, todo.length || 1)) }, worker));
  checkpoint();
  return result;
}

/** A client that answers each episode from its own requests (a collected batch: evaluator/batch/), else the client itself. */
function clientFor(client: LlmClient, episodeId: string): LlmClient {
  const scoped = client as LlmClient & { forEpisode?: (episodeId: string) => LlmClient };
  return typeof scoped.forEpisode === 'function' ? scoped.forEpisode(episodeId) : client;
}
