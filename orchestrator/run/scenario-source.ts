import { builtinScenarioSet } from '../../scenarios/builtin.js';
import { loadScenarioFile } from '../../scenarios/load.js';
import type { Scenario } from '../../scenarios/model.js';
import type { RunConfig } from '../run-config.js';
import { SCRIPT_SEAT } from '../world.js';
import { RunError, RunErrorCode } from './run-error.js';

/**
 * The scenarios of a run: `builtin` (generated from the seed) or a Parley scenario file, filtered by
 * `subset`. Fails with a clear message when nothing is left or a scenario cannot be run. `first`: the
 * caller uses only the first scenarios (a `--limit`ed plan); the built-in set then builds only those.
 */
export async function loadRunScenarios(config: Pick<RunConfig, 'scenarios' | 'subset' | 'seed'>, first?: number): Promise<Scenario[]> {
  let all: Scenario[];
  try {
    all = config.scenarios === 'builtin' ? builtinScenarioSet(config.seed, config.subset, first) : await loadScenarioFile(config.scenarios);
  } catch (err) {
    throw new RunError(RunErrorCode.ScenarioLoad, `cannot load scenarios: ${(err as Error).message}`, { cause: err });
  }
  const chosen = config.subset ? all.filter((s) => s.subsets.includes(config.subset!)) : all;
  if (chosen.length === 0) {
    const subsets = [...new Set(all.flatMap((s) => s.subsets))].sort();
    throw new RunError(
      RunErrorCode.NoScenarios,
      config.subset
        ? `no scenario of ${config.scenarios} is in subset '${config.subset}' (subsets: ${subsets.join(', ') || 'none'})`
        : `${config.scenarios} holds no scenarios`,
    );
  }
  for (const s of chosen) {
    const seats = s.seats.map((x) => x.seat);
    if (new Set(seats).size !== seats.length) throw new RunError(RunErrorCode.BadScenario, `scenario ${s.id}: duplicate seat ids`);
    if (seats.includes(SCRIPT_SEAT)) throw new RunError(RunErrorCode.BadScenario, `scenario ${s.id}: seat id '${SCRIPT_SEAT}' is reserved for the script writer`);
  }
  return chosen;
}
