import type { Clock } from '../clock.js';
import type { ConnectionOptions } from '../net/agent-connection.js';
import type { EngineHooks } from '../engine/engine-types.js';
import type { Episode } from '../episode.js';
import type { WorkerPool } from '../supervisor/worker-pool.js';

/**
 * The seams of a run for tests and the benchmark: instrumentation and substitutes, all optional, none
 * used by `parley run`. Passed to `runExperiment` apart from its options, so what a user can set and
 * what only a test or the benchmark sets are not mixed.
 */
export interface RunProbes {
  /** Another clock for deadlines and grace periods (default: the system clock). */
  clock?: Clock;
  /** Another agent process entry (a test's fake agent), instead of the declared one. */
  workerEntry?: string;
  /** Instrumentation of the turn loop. */
  engine?: EngineHooks;
  /** Each episode once prepared (to kill one of its seats, to count). */
  episodePrepared?(episode: Episode): void;
  /** The local agent process pool once started (memory sampling). */
  poolStarted?(pool: WorkerPool): void;
  /**
   * Start no episode before the whole local pool is ready (the benchmark's steady-state cases measure N
   * episodes in flight, not start-up); by default episodes start as soon as their seats' processes are.
   */
  fullPoolFirst?: boolean;
  /** A bot-only run's pool starts all its processes, as other runs' do, instead of growing on demand (early-start tests). */
  eagerPool?: boolean;
  /** Period of the progress summary line or redraw (the benchmark silences it). */
  progressIntervalMs?: number;
  /** Heartbeat and abuse limits of the agent connections (a test detects a hung process sooner). */
  connection?: ConnectionOptions;
  /** How long to wait for another writer holding the run directory (default 15 s). */
  lockWaitMs?: number;
}
