import type { runExperiment as RunExperiment } from '../orchestrator/run/driver.js';

/**
 * The orchestrator's runExperiment, loaded at its first call: a command that refuses its settings (checked
 * before any episode) never loads the orchestrator, its socket servers and agent pool. In the CLI's bundle
 * the driver's modules are then evaluated only by a command that runs episodes.
 */
export const runExperiment: typeof RunExperiment = async (...args) => (await import('../orchestrator/run/driver.js')).runExperiment(...args);
