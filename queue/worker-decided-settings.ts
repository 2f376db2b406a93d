import { DEFAULT_CONCURRENCY, type RunConfig } from '../orchestrator/run/index.js';
import type { RunJson } from '../run-dir/index.js';
import type { EpisodeResult } from './jobs.js';

/**
 * The settings of a run's configuration that a coordinator (`parley run --queue`) does not apply: it
 * runs no episode, so how many run at once and how agent processes are shared are each worker's own
 * flags (`parley worker --concurrency N --multiplex --seats-per-process N`). The flags are refused by
 * `parley run --queue` (cli/queue-worker-settings.ts); an experiment file's `concurrency:` and `pool:`
 * are not, since one file serves a local run and a queued one (examples/paper.yaml sets concurrency 8).
 * They are recorded as not applied instead (run.json's `notApplied`, not its `config`), and said once;
 * what the workers applied is recorded under run.json's `queue.workers` (noteWorker).
 */
export const WORKER_DECIDED = ['concurrency', 'pool'] as const;

/** The line a coordinator prints when the configuration sets what the workers decide, or null. */
export function workerDecidedLine(config: Pick<RunConfig, 'concurrency' | 'pool'>): string | null {
  const given: string[] = [];
  if (config.concurrency !== DEFAULT_CONCURRENCY) given.push(`concurrency: ${config.concurrency}`);
  if (config.pool.multiplex || config.pool.seatsPerProcess !== 1) given.push(`pool: ${JSON.stringify(config.pool)}`);
  if (given.length === 0) return null;
  return `${given.join(', ')}: not applied with --queue (each worker decides: parley worker --concurrency N --multiplex --seats-per-process N); run.json records it under notApplied, and what each worker applied under queue.workers`;
}

/** Workers run.json names at most (a run of many short-lived workers must not grow it without bound). */
export const QUEUE_WORKERS_KEPT = 64;

type QueueField = NonNullable<RunJson['queue']>;

/**
 * Notes in run.json's `queue` field what the worker that returned an episode applied (its concurrency and
 * pool), once a worker (host and pid); a worker that reports none (an older version) is not named.
 * Returns whether it added an entry (the caller then rewrites run.json: at most QUEUE_WORKERS_KEPT times a run).
 */
export function noteWorker(queue: QueueField, worker: EpisodeResult['worker']): boolean {
  if (!worker.settings) return false;
  const workers = (queue.workers ??= []);
  const host = worker.host.slice(0, 255);
  if (workers.length >= QUEUE_WORKERS_KEPT || workers.some((w) => w.host === host && w.pid === worker.pid)) return false;
  workers.push({ host, pid: worker.pid, ...worker.settings });
  return true;
}
