/** Codes of run-level failures (the run cannot start or cannot go on). */
export const RunErrorCode = {
  NoScenarios: 'run/no_scenarios',
  ScenarioLoad: 'run/scenario_load',
  BadScenario: 'run/bad_scenario',
  /** Settings that do not go together (e.g. a paper-only flag under --protocol parley). */
  BadConfig: 'run/bad_config',
  Io: 'run/io',
  Agents: 'run/agents',
  /** Another orchestrator is using the run directory. */
  Busy: 'run/busy',
  /** Every episode is recorded but the run's summary (stats in run.json) could not be computed or written. */
  Summary: 'run/summary_failed',
} as const;
export type RunErrorCode = (typeof RunErrorCode)[keyof typeof RunErrorCode];

/** A run-level failure with a message fit for the terminal. */
export class RunError extends Error {
  constructor(readonly code: RunErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunError';
  }
}
