import { DEFAULT_CONCURRENCY, type RunConfig } from '../orchestrator/run/index.js';

/**
 * The settings of a run's configuration that a coordinator (`parley run --queue`) does not apply: it
 * runs no episode, so how many run at once and how agent processes are shared are each worker's own
 * flags (`parley worker --concurrency N --multiplex --seats-per-process N`). The flags are refused by
 * `parley run --queue` (cli/queue-worker-settings.ts); an experiment file's `concurrency:` and `pool:`
 * are not, since one file serves a local run and a queued one (examples/paper.yaml sets concurrency 8).
 * They are recorded as not applied instead (run.json's `notApplied`, not its `config`), and said once.
 */
export const WORKER_DECIDED = ['concurrency', 'pool'] as const;

/** The line a coordinator prints when the configuration sets what the workers decide, or null. */
export function workerDecidedLine(config: Pick<RunConfig, 'concurrency' | 'pool'>): string | null {
  const given: string[] = [];
  if (config.concurrency !== DEFAULT_CONCURRENCY) given.push(`concurrency: ${config.concurrency}`);
  if (config.pool.multiplex || config.pool.seatsPerProcess !== 1) given.push(`pool: ${JSON.stringify(config.pool)}`);
  if (given.length === 0) return null;
  return `${given.join(', ')}: not applied with --queue (each worker decides: parley worker --concurrency N --multiplex --seats-per-process N); run.json records it under notApplied`;
}
