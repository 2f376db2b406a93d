import { judgementView, type EpisodeMetrics } from '../../evaluator/metrics/episode-metrics.js';
import { runMetrics } from '../../evaluator/metrics/run-metrics.js';
import { judgeVariant, judgeVariants, readEvaluation } from '../../evaluator/evaluation.js';
import type { RunDir } from '../../evaluator/run-dir.js';
import type { Rubric } from '../../evaluator/rubric/rubric.js';

/*
 * The episodes of one arm as one side of a specification reads them (issue 43): the draws that count
 * (a superseded draw of the selection rule is not one), and, when the side is judged, each episode's
 * judgement by that side's judge on its rubric, whichever other judges scored the same run.
 */

/** The arm's counted episodes' metrics; `judged`: the judge and rubric whose scores the judged metrics read. */
export function armMetrics(run: RunDir, judged?: { spec: string; rubric: Rubric }): EpisodeMetrics[] {
  const all = runMetrics(run);
  const key = judged ? judgeVariant({ spec: judged.spec, visibility: 'full', rubric: judged.rubric }) : null;
  return all.flatMap((m, i) => {
    const record = run.episodes[i]!.record;
    if (record.selection?.status === 'superseded') return [];
    if (key === null) return [m];
    const judgement = judgeVariants(readEvaluation(record.evaluation)).get(key);
    return [{ ...m, judge: judgement ? judgementView(judgement) : null }];
  });
}
