import { appendJudgement, clearJudgementJournal, rewriteEpisodes, type RunLock } from '../../run-dir/index.js';
import { judgeVariant, readEvaluation, type Evaluation } from '../evaluation.js';
import type { RunDir } from '../run-dir.js';
import { countSeatFailures, type SeatFailures } from '../seat-failures.js';
import { attributeEpisode, type AttributeOptions } from './attribute-episode.js';

export interface AttributeRunOptions extends AttributeOptions {
  /** The run directory's lock, held from before `run` was loaded until this returns. */
  lock: RunLock;
  concurrency: number;
  /** Only episodes whose main judgement has no split yet, or whose split has a failed seat (resume). */
  missingOnly?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface AttributeRunResult extends SeatFailures {
  attributed: number;
  /** Episodes not split: failed, not judged, or (with `missingOnly`) split already. */
  skipped: number;
  splitSeats: number;
  usage: { prompt: number; completion: number };
}

/** Whether the episode's current split is of its main judgement and has every seat split. */
function splitDone(evaluation: Evaluation | null): boolean {
  const a = evaluation?.attribution;
  return !!a && !!evaluation?.judge && a.of === judgeVariant(evaluation.judge.judge) && Object.values(a.seats).every((s) => s.ok);
}

/**
 * `eval --attribute`: splits each judged episode's goal scores (its main judgement's) over the seats' moves
 * and records the split as `evaluation.attribution`; each split is in the judgement journal the moment it
 * returns and `episodes.jsonl` is rewritten at the end, as `evaluateRun` does with judgements.
 */
export async function attributeRun(run: RunDir, opts: AttributeRunOptions): Promise<AttributeRunResult> {
  const result: AttributeRunResult = { attributed: 0, skipped: 0, splitSeats: 0, errorSeats: 0, errors: {}, usage: { prompt: 0, completion: 0 } };
  const todo = run.episodes.filter((e) => {
    const ev = readEvaluation(e.record.evaluation);
    const go = e.record.status !== 'failed' && !!ev?.judge && !(opts.missingOnly && splitDone(ev));
    if (!go) result.skipped++;
    return go;
  });
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      if (opts.signal?.aborted) return;
      const loaded = todo[next++]!;
      const previous = readEvaluation(loaded.record.evaluation)!;
      const attribution = await attributeEpisode(loaded.record, run.scenarios.get(loaded.record.scenarioId), previous.judge!, opts);
      const evaluation: Evaluation = { ...previous, attribution };
      loaded.record.evaluation = evaluation;
      loaded.raw = { ...loaded.raw, evaluation };
      appendJudgement(opts.lock, { episodeId: loaded.record.episodeId, evaluation });
      result.attributed++;
      result.usage.prompt += attribution.usage.prompt;
      result.usage.completion += attribution.usage.completion;
      result.splitSeats += countSeatFailures(result, Object.values(attribution.seats));
      opts.onProgress?.(result.attributed, todo.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, todo.length || 1)) }, worker));
  rewriteEpisodes(opts.lock, run.episodes.map((e) => e.raw));
  clearJudgementJournal(opts.lock);
  return result;
}
