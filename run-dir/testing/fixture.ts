import type { RunJsonInput } from '../run-json.js';

/** A complete run.json of a finished run (as the orchestrator writes it), for a run directory fixture. */
export function fixtureRunJson(runId: string, scenarioIds: readonly string[], over: Partial<RunJsonInput> = {}): RunJsonInput {
  return {
    runId,
    pid: 4242,
    code: { package: '0.0.0', git: null },
    orchestrator: { pid: 4242, node: 'v20.19.0', host: 'test' },
    hosting: 'local',
    config: { scenarios: 'test', modes: ['script', 'agents'], seed: 1, maxTurns: 20 },
    prompts: [],
    scenarioSet: { source: 'test', subset: null, seed: 1, count: scenarioIds.length, ids: [...scenarioIds] },
    episodes: { planned: 0, alreadyRecorded: 0 },
    startedAt: '2024-01-01T00:00:00.000Z',
    endedAt: '2024-01-01T00:01:00.000Z',
    stats: null,
    ...over,
  };
}
