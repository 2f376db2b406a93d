import { missingScenarioIds, missingScenariosMessage, readRunScenarios, type EpisodesRead, type RunPaths } from '../../run-dir/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { RunConfig } from '../run-config.js';
import { RunError, RunErrorCode } from './run-error.js';
import { loadRunScenarios } from './scenario-source.js';

/**
 * The scenarios a run directory keeps in scenarios.jsonl after this invocation: every one its recorded
 * episodes use and every one it plans. An `--extend` or resume plans only some of them (another
 * `--subset`), so those already in the file are kept; the file lists them first, as it had them.
 * Recorded episodes whose scenario is in neither (a run written before this was kept) stop the run
 * before anything is written, naming them, unless `repairScenarios` is set: then they are taken from
 * this invocation's scenario source, whole (no subset), and any still missing are named. `episodes`: the
 * run directory's episodes.jsonl as read now.
 */
export async function keptScenarios(paths: RunPaths, planned: readonly Scenario[], config: Pick<RunConfig, 'scenarios' | 'seed' | 'repairScenarios'>, episodes: EpisodesRead): Promise<Scenario[]> {
  const kept = new Map<string, Scenario>();
  const file = readRunScenarios(paths);
  if (file.ok) for (const [id, s] of file.scenarios) kept.set(id, s);
  // A planned scenario is the one this invocation plays: its version is written.
  for (const s of planned) kept.set(s.id, s);
  const recorded = episodes.rows.map((r) => r.record.scenarioId);
  const missing = missingScenarioIds(recorded, kept);
  if (!missing.length) return [...kept.values()];
  if (!config.repairScenarios) {
    const why = file.ok ? '' : ` (${file.message})`;
    throw new RunError(RunErrorCode.MissingScenarios, missingScenariosMessage(paths, missing, config.scenarios) + why);
  }
  const source = await loadRunScenarios({ scenarios: config.scenarios, seed: config.seed });
  for (const s of source) if (missing.includes(s.id)) kept.set(s.id, s);
  const still = missingScenarioIds(missing, kept);
  if (still.length) {
    throw new RunError(RunErrorCode.MissingScenarios, `--repair-scenarios: ${config.scenarios} does not hold ${still.length} of the missing scenario(s) (${still.slice(0, 5).join(', ')}${still.length > 5 ? ', …' : ''}); name their source with --scenarios`);
  }
  return [...kept.values()];
}
