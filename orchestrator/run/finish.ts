import type { EpisodeRecord } from '../../protocol/index.js';
import type { RunStats } from '../../run-dir/index.js';
import type { RunEnding } from './run-manifest.js';
import { RunError, RunErrorCode } from './run-error.js';
import { computeStats, type ReplayedSeat } from './stats.js';

export interface FinishInput {
  /** Every record of the run directory (earlier invocations included). */
  records: readonly EpisodeRecord[];
  isReplayed?: ReplayedSeat;
  interrupted: boolean;
  /** Writes run.json's ending (the executor's own writer: local driver or queue coordinator). */
  write: (ending: Exclude<RunEnding, { endedAt: null }>) => void;
}

/**
 * The last step of every run: stats over all records into run.json. The records are already on disk, so
 * a summary that cannot be computed or written must not cost them: run.json is ended with a
 * `summaryError` (code and message), and a `RunError` tells the user, in one line, that running the same
 * command again repairs it (a rerun finds every episode recorded and recomputes the summary).
 */
export function finishRun(input: FinishInput, now: () => Date = () => new Date()): RunStats {
  const endedAt = now().toISOString();
  try {
    const stats = computeStats(input.records, input.isReplayed);
    input.write({ endedAt, interrupted: input.interrupted, stats });
    return stats;
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    try {
      input.write({ endedAt, interrupted: input.interrupted, stats: null, summaryError: { code: RunErrorCode.Summary, message } });
    } catch {
      // run.json keeps its start (endedAt null): the line below still says what happened.
    }
    throw new RunError(
      RunErrorCode.Summary,
      `all ${input.records.length} episode record(s) are saved, but the run's summary could not be written (${message}); ` +
        'run the same command again to repair it',
      { cause: err },
    );
  }
}
