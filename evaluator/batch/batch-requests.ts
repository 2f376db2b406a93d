import type { ChatRequest } from '../../llm/types.js';
import { readEvaluation, type JudgeVisibility } from '../evaluation.js';
import { alreadyDone } from '../evaluate-run.js';
import { JUDGE_TEMPERATURE } from '../judge/judge.js';
import { judgeCalls, schemaName, type JudgeView } from '../judge/prompt.js';
import type { Rubric } from '../rubric/rubric.js';
import type { RunDir } from '../run-dir.js';

/**
 * The judge requests of `parley eval --batch`: exactly the first attempts `judgeEpisode` would send live
 * (same calls, messages, schema and temperature), each with the `custom_id` that names it in the batch.
 */
export interface BatchJudgeRequest {
  /** `<episode id>#<call index>`: only ever a key into this list, never a path or a lookup elsewhere. */
  customId: string;
  episodeId: string;
  request: ChatRequest;
}

export interface BatchSelection {
  spec: string;
  visibility: JudgeVisibility;
  view: JudgeView;
  rubric: Rubric;
  /** The judge's temperature (`eval --param temperature=T`; default JUDGE_TEMPERATURE). */
  temperature?: number;
}

/** The episodes a batch judges: as live eval, failed ones are left out, and with `missingOnly` those already scored. */
export function batchEpisodes(run: RunDir, sel: BatchSelection & { missingOnly: boolean }): string[] {
  return run.episodes
    .filter(({ record }) => record.status !== 'failed' && !(sel.missingOnly && alreadyDone(readEvaluation(record.evaluation), sel.spec, sel.visibility, sel.rubric, record.selection)))
    .map(({ record }) => record.episodeId);
}

export const customIdOf = (episodeId: string, call: number) => `${episodeId}#${call}`;

/** The requests for `episodeIds` (in run order); an episode whose scenario is missing has none (judged as an error). */
export function batchJudgeRequests(run: RunDir, episodeIds: readonly string[], sel: BatchSelection): BatchJudgeRequest[] {
  const wanted = new Set(episodeIds);
  const out: BatchJudgeRequest[] = [];
  for (const { record } of run.episodes) {
    if (!wanted.has(record.episodeId)) continue;
    const scenario = run.scenarios.get(record.scenarioId);
    if (!scenario) continue;
    judgeCalls(record, scenario, sel.visibility, sel.view, sel.rubric).forEach((call, i) => {
      const request: ChatRequest = { messages: call.messages, temperature: sel.temperature ?? JUDGE_TEMPERATURE };
      if (call.structured) request.json = { name: schemaName(sel.rubric), schema: call.schema };
      out.push({ customId: customIdOf(record.episodeId, i), episodeId: record.episodeId, request });
    });
  }
  return out;
}
