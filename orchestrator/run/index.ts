/**
 * The run lifecycle's public entry: everything another top-level module (`queue/`, the CLI) may use to
 * plan, host and record a run. `queue/` imports `orchestrator/` only through this file (issue 22,
 * Contract 2; enforced in `test/boundaries/rules.ts`), so the run's internals can move without
 * touching the queue executor. The queue is one executor of `runLifecycle` (lifecycle.ts); its workers
 * play episodes on `EpisodeHost`.
 */
export type { EpisodePlan } from '../episode-plan.js';
export type { RunConfig } from '../run-config.js';
export { DEFAULT_CONCURRENCY } from '../run-config.js';
export { codeVersion } from './code-version.js';
export { EpisodeHost, type EpisodeHostOptions, type EpisodeRunSettings } from './episode-host.js';
export { lifecycleOptions, runLifecycle, RunDirConflict, type LifecycleOptions, type OpenRun, type RunExecutor, type RunResult } from './lifecycle.js';
export { type StatusTerminal } from './progress-reporter.js';
export { resolveProtocol } from './protocol.js';
export { SCRIPT_SEAT } from '../world.js';
