import type { SimulationProtocol } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { EpisodePlan } from '../episode-plan.js';
import { readForkParent } from '../fork/parent.js';
import { planForks } from '../fork/plan.js';
import { prefixProblem } from '../fork/prefix-check.js';
import type { RunConfig } from '../run-config.js';
import { makeLimits } from '../world.js';
import { planEpisodes } from './plan.js';
import { RunError, RunErrorCode } from './run-error.js';
import { loadRunScenarios } from './scenario-source.js';

/** What a run plays: its scenarios, and its episode plans once the protocol is resolved. */
export interface RunInputs {
  scenarios: Scenario[];
  plan(protocol: SimulationProtocol): EpisodePlan[];
}

/**
 * A run's scenarios and plan: a scenario set expanded into scenarios × modes × repeats, or, for a fork
 * run (`config.fork`), the parent episode's scenario and one episode per fork turn and repeat. A fork is
 * checked here again on every invocation (resume, `--extend`): the parent must still be readable and
 * replay exactly at every fork turn, or the run stops before anything is written.
 */
export async function loadRunInputs(config: RunConfig): Promise<RunInputs> {
  const fork = config.fork;
  if (!fork) {
    const scenarios = await loadRunScenarios(config, scenariosPlanned(config));
    return { scenarios, plan: (protocol) => planEpisodes(scenarios, config, protocol) };
  }
  const read = readForkParent(fork.parent, fork.episode);
  if (!read.ok) throw new RunError(RunErrorCode.BadConfig, read.message);
  const parent = read.parent;
  return {
    scenarios: [parent.scenario],
    plan: (protocol) => {
      const limits = makeLimits(config.maxTurns, config.turnDeadlineMs);
      for (const at of config.forkAt ?? []) {
        const problem = prefixProblem(parent, { episodeId: 'fork', scenario: parent.scenario, mode: parent.record.mode, limits, protocol }, at);
        if (problem) throw new RunError(RunErrorCode.BadConfig, problem);
      }
      return planForks(parent, config, protocol);
    },
  };
}

/**
 * How many scenarios from the front of the set a `--limit`ed run plans: the plan is scenario-major
 * (modes x repeats a scenario, run/plan.ts), so `limit` episodes use the first ceil(limit / (modes x
 * repeats)). Undefined (all) without a limit, and with `--mindread`, whose seats are checked against
 * every scenario of the set.
 */
export function scenariosPlanned(config: Pick<RunConfig, 'limit' | 'modes' | 'repeats' | 'mindread'>): number | undefined {
  if (config.limit === undefined || config.mindread !== undefined) return undefined;
  return Math.ceil(config.limit / (config.modes.length * config.repeats));
}
