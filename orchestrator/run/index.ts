/**
 * The run lifecycle's public entry: everything another top-level module (`queue/`, the CLI) may use to
 * plan, host and record a run. `queue/` imports `orchestrator/` only through this file (issue 22,
 * Contract 2; enforced in `test/boundaries/rules.ts`), so the run's internals can move without
 * touching the queue executor.
 */
export type { EpisodePlan } from '../episode-plan.js';
export type { RunConfig } from '../run-config.js';
export { codeVersion } from './code-version.js';
export { RunDirConflict, recordedProtocolKey, type RunResult } from './driver.js';
export { EpisodeHost, type EpisodeHostOptions, type HostedRun } from './episode-host.js';
export { checkExperimentIdentity, protocolChange, type HistoryEntry } from './experiment-identity.js';
export { planEpisodes } from './plan.js';
export { ProgressReporter, type StatusTerminal } from './progress-reporter.js';
export { promptTemplates } from './prompt-files.js';
export { protocolKey, resolveProtocol } from './protocol.js';
export { prepareResume } from './resume.js';
export { loadRunScenarios } from './scenario-source.js';
export { computeStats } from './stats.js';
export { finishRun } from './finish.js';
