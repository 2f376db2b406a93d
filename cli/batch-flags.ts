import type { FlagSpecs } from './args.js';
import { UsageError } from './command.js';
import { MAX_RETRY_ROUNDS, type BatchRetry } from '../evaluator/batch/retry.js';

/**
 * The flags `eval --batch` and `compare --batch` share beside `--batch` itself: what happens to requests a
 * batch failed or expired, and how often a pending batch is read. One declaration, so both commands'
 * help and errors say the same thing.
 */


export const BATCH_RETRY_FLAGS: FlagSpecs = {
  'batch-retry': { type: 'string', metavar: 'live|batch', describe: `requests a batch failed or expired: sent live (default), or in a new batch (up to ${MAX_RETRY_ROUNDS} more; then live)` },
  'batch-poll': { type: 'number', metavar: 'SECONDS', describe: "how often a pending batch's status is read (default 30)" },
};

type BatchFlags = { batch?: boolean; 'batch-retry'?: string; 'batch-poll'?: number };

/** `--batch-retry`: live (default) or batch; only with --batch. */
export function batchRetryOf(values: BatchFlags): BatchRetry {
  const v = values['batch-retry'] ?? 'live';
  if (v !== 'live' && v !== 'batch') throw new UsageError(`--batch-retry must be live or batch (got '${v}')`);
  if (values['batch-retry'] !== undefined && !values.batch) throw new UsageError('--batch-retry needs --batch');
  return v;
}

/** `--batch-poll SECONDS` (fractions allowed: tests poll fast), default 30 s; only with --batch. */
export function batchPollMsOf(values: BatchFlags): number {
  const s = values['batch-poll'] ?? 30;
  if (!Number.isFinite(s) || s <= 0) throw new UsageError(`--batch-poll must be a positive number of seconds (got ${String(s)})`);
  // Live judging polls nothing: without this, eval and compare took the flag and ignored it.
  if (values['batch-poll'] !== undefined && !values.batch) throw new UsageError('--batch-poll needs --batch');
  return Math.max(1, Math.round(s * 1000));
}
