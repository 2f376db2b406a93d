import { RunErrorCode, type EpisodeRecord } from '../../protocol/index.js';
import { discardEpisodeFiles, readEpisodes, repairTail, rewriteEpisodes, type EpisodeRow, type EpisodesRead, type RunLock } from '../../run-dir/index.js';
import type { EpisodePlan } from '../episode-plan.js';

export interface ResumeState {
  /** Records kept from earlier invocations (one per episode id). */
  kept: EpisodeRecord[];
  /** Their rows: what episodes.jsonl reads as now (`recordsWithAppended` adds this invocation's). */
  rows: EpisodeRow[];
  /** Planned episodes without a record: what this invocation runs. */
  pending: EpisodePlan[];
}

/**
 * Brings a run directory to a state this invocation can append to, and says what is left to run:
 *  - a torn last line of `episodes.jsonl` (an append cut short by a crash) is truncated away, and said;
 *  - records are one per episode id (duplicates from an older version or a hand edit are compacted,
 *    the last one kept); unreadable lines are reported;
 *  - `retryFailed`: failed records are dropped, so those episodes run again and are recorded once;
 *  - ledgers and cassettes of planned episodes that have no record (started by a run that was killed)
 *    are discarded: they describe an attempt that produced nothing, and the rerun writes its own.
 */
export function prepareResume(lock: RunLock, plans: readonly EpisodePlan[], o: { retryFailed: boolean; log: (line: string) => void; earlier?: EpisodesRead }): ResumeState {
  const { paths } = lock;
  const torn = repairTail(lock);
  if (torn) o.log(`episodes.jsonl: removed a torn last line (${torn} bytes) left by an interrupted write; that episode runs again`);
  // `earlier` (read before the lock) serves only if the file is as it was then (readEpisodes checks).
  const previous = readEpisodes(paths, o.earlier);
  const unreadable = previous.badLines.filter((b) => b.code !== RunErrorCode.BadEvaluation);
  const badEvaluations = previous.badLines.filter((b) => b.code === RunErrorCode.BadEvaluation);
  if (unreadable.length) o.log(`episodes.jsonl: skipping unreadable line(s) ${unreadable.map((b) => b.line).join(', ')}`);
  // The episode is kept (not played again); `parley eval` and `report` refuse the file until the line is fixed.
  if (badEvaluations.length) o.log(`episodes.jsonl: ${RunErrorCode.BadEvaluation}: malformed evaluation on line(s) ${badEvaluations.map((b) => b.line).join(', ')} (episodes kept)`);
  let rows = previous.rows;
  let rewrite = false;
  if (previous.duplicates) {
    o.log(`episodes.jsonl: ${previous.duplicates} duplicate record(s) of the same episode id removed (the last one is kept)`);
    rewrite = true;
  }
  if (o.retryFailed) {
    const failed = rows.filter((r) => r.record.status === 'failed').length;
    if (failed) {
      rows = rows.filter((r) => r.record.status !== 'failed');
      rewrite = true;
      o.log(`retrying ${failed} failed episode(s)`);
    }
  }
  // Raw rows: an evaluation or a field of a later version survives the compaction.
  if (rewrite) rewriteEpisodes(lock, rows.map((r) => r.raw));
  const kept = rows.map((r) => r.record);

  const done = new Set(kept.map((r) => r.episodeId));
  const pending = plans.filter((p) => !done.has(p.episodeId));
  let discarded = 0;
  for (const p of pending) if (discardEpisodeFiles(lock, p.episodeId)) discarded += 1;
  if (discarded) o.log(`discarded the ledgers of ${discarded} episode(s) started but not recorded by an earlier invocation; they run again`);
  return { kept, rows, pending };
}
