import { judgeVariant, judgeVariants, readEvaluation, type JudgeVisibility } from './evaluation.js';
import { judgeCalls, type JudgeView } from './judge/prompt.js';
import type { Rubric } from './rubric/rubric.js';
import type { RunDir } from './run-dir.js';

/**
 * What `parley eval` would send, worked out from the real judge requests without sending any: per judge,
 * the episodes it would score, its calls (first attempts; a retry or reformat request adds to them), the
 * characters of their messages, and how many (seat, dimension) answers and deal answers they ask for.
 * Turning characters and answers into tokens and dollars is the caller's (the CLI's estimate table).
 */
export interface JudgePlan {
  spec: string;
  episodes: number;
  skippedFailed: number;
  skippedDone: number;
  calls: number;
  promptChars: number;
  /** Scores asked for: one per scored seat and dimension (each comes with its reasoning). */
  seatDimensions: number;
  /** Craigslist deal questions. */
  dealCalls: number;
}

export interface PlanJudgingOptions {
  specs: readonly string[];
  rubric: Rubric;
  visibility: JudgeVisibility;
  view: JudgeView;
  /** As `eval --missing`: skip episodes this judge already scored on this rubric without error. */
  missingOnly: boolean;
}

/** The plan for every judge of a panel over one run directory. */
export function planJudging(run: RunDir, opts: PlanJudgingOptions): JudgePlan[] {
  return opts.specs.map((spec) => {
    const plan: JudgePlan = { spec, episodes: 0, skippedFailed: 0, skippedDone: 0, calls: 0, promptChars: 0, seatDimensions: 0, dealCalls: 0 };
    const key = judgeVariant({ spec, visibility: opts.visibility, rubric: opts.rubric });
    for (const { record } of run.episodes) {
      if (record.status === 'failed') {
        plan.skippedFailed++;
        continue;
      }
      const done = judgeVariants(readEvaluation(record.evaluation)).get(key);
      // As evaluate-run.ts alreadyDone: a superseded draw this judge tried is not judged again.
      if (opts.missingOnly && done && (record.selection?.status === 'superseded' || Object.values(done.seats).every((s) => s.ok))) {
        plan.skippedDone++;
        continue;
      }
      plan.episodes++;
      const scenario = run.scenarios.get(record.scenarioId);
      if (!scenario) continue; // judged as an explicit error, with no call
      for (const call of judgeCalls(record, scenario, opts.visibility, opts.view, opts.rubric)) {
        plan.calls++;
        plan.promptChars += call.messages.reduce((a, m) => a + String(m.content).length, 0);
        if (call.askDeal) plan.dealCalls++;
        for (const seat of call.seats) plan.seatDimensions += call.dims[seat]?.length ?? 0;
      }
    }
    return plan;
  });
}
