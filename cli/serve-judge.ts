import { openLiveJudge } from '../evaluator/live-judge.js';
import { SOTOPIA_RUBRIC } from '../evaluator/rubric/builtin.js';
import { loadRubric } from '../evaluator/rubric/load-rubric.js';
import { missingKeys } from '../llm/preflight.js';
import { llmSpecProblem } from '../llm/spec.js';
import type { EpisodeScorer } from '../orchestrator/end-scores.js';
import type { RunConfig } from '../orchestrator/run-config.js';
import { UsageError } from './command.js';

/**
 * `parley serve --judge SPEC` (or an experiment file's `judge:`): the scorer that judges each episode as
 * it ends, so each seat's `episode.end` carries its scores (evaluator/live-judge.ts). Everything is
 * checked before a seat is opened: a spec that is no LLM, a missing key, a rubric that does not load are
 * one line and exit 2; an unreachable judge endpoint stops serve at once (exit 1). Nothing is written.
 */
export async function serveScorer(config: RunConfig): Promise<EpisodeScorer | undefined> {
  const judge = config.judge;
  if (!judge) return undefined;
  const problem = llmSpecProblem(judge.spec);
  if (problem) throw new UsageError(`--judge ${judge.spec}: ${problem}`);
  const missing = missingKeys([judge]);
  if (missing.length) throw new UsageError(missing.map((m) => `missing ${m.variable} for judge ${m.spec} (set it in the environment)`).join('; '));
  let rubric = SOTOPIA_RUBRIC;
  if (config.rubric !== undefined) {
    const loaded = loadRubric(config.rubric);
    if (!loaded.ok) throw new UsageError(loaded.message);
    rubric = loaded.rubric;
  }
  return openLiveJudge({ judge, rubric, ...(config.judgeView !== undefined ? { judgeView: config.judgeView } : {}) });
}
