import * as z from 'zod';
import { DimensionScore, Evaluation, JudgeVisibility, SeatJudgement, type EpisodeJudgement } from '../protocol/evaluation.js';
import { isSotopia } from './rubric/builtin.js';

/**
 * The judge's side of the `evaluation` field of an EpisodeRecord: range checks, variant keys and how a new
 * judgement joins the others. The field's schemas are protocol/evaluation.ts (the record's type checks it
 * where run-dir/ reads episodes.jsonl); they are re-exported here for the evaluator's modules.
 */
export { DimensionScore, EpisodeJudgement, Evaluation, EvaluationError, JudgedDeal, JudgeInfo, JudgeVisibility, SeatJudgement, SeatScores } from '../protocol/evaluation.js';

/** One dimension's score, range-checked against its rubric's range. */
function rangedScore(d: { name: string; min: number; max: number }) {
  const name = d.name;
  return z.object({
    reasoning: z.string(),
    score: z
      .number({ error: `${name}: score must be a number` })
      .int({ error: `${name}: score must be an integer` })
      .min(d.min, { error: `${name}: score below ${d.min}` })
      .max(d.max, { error: `${name}: score above ${d.max}` }),
  });
}

/**
 * Validators built so far, by their dimensions' names and ranges: building a zod object and compiling it
 * on first use was a fifth of `parley eval`'s CPU when done for every reply. Zod schemas are immutable.
 */
const validators = new Map<string, ReturnType<typeof buildRangedScores>>();

/**
 * The validator of one seat's reply under a rubric: each of its dimensions required and in range; other
 * keys a judge adds are dropped, so a stored seat carries exactly its rubric's dimensions.
 */
export function rangedScores(dims: readonly { name: string; min: number; max: number }[]) {
  const key = JSON.stringify(dims.map((d) => [d.name, d.min, d.max]));
  let validator = validators.get(key);
  if (!validator) {
    // A run uses a handful of rubrics; the bound only keeps a long-lived process from growing without end.
    if (validators.size >= 64) validators.clear();
    validator = buildRangedScores(dims);
    validators.set(key, validator);
  }
  return validator;
}

function buildRangedScores(dims: readonly { name: string; min: number; max: number }[]) {
  return z.object(Object.fromEntries(dims.map((d) => [d.name, rangedScore(d)])));
}

/**
 * The key of a judge variant: spec and visibility, and for any rubric but the default its name and hash
 * (so an edited rubric file scores apart, and the default's keys are those of records older than rubrics).
 */
export function judgeVariant(j: { spec: string; visibility: JudgeVisibility; rubric?: { name: string; hash: string } | undefined }): string {
  return isSotopia(j.rubric) ? `${j.spec} ${j.visibility}` : `${j.spec} ${j.visibility} ${j.rubric!.name}@${j.rubric!.hash.slice(0, 12)}`;
}

/** Every judgement stored on an evaluation, by variant (an older record's lone `judge` included). */
export function judgeVariants(evaluation: Evaluation | null): Map<string, EpisodeJudgement> {
  const out = new Map<string, EpisodeJudgement>();
  if (evaluation?.judge) out.set(judgeVariant(evaluation.judge.judge), evaluation.judge);
  for (const [k, j] of Object.entries(evaluation?.variants ?? {})) out.set(k, j);
  return out;
}

/**
 * Adds a judgement as its variant. It becomes `judge` (what the report's main table reads) when there is
 * none yet, or when it is full-background and does not displace a default-rubric judgement with another rubric.
 */
export function withJudgement(previous: Evaluation | null, judgement: EpisodeJudgement): Evaluation {
  const variants = Object.fromEntries(judgeVariants(previous));
  variants[judgeVariant(judgement.judge)] = judgement;
  const before = previous?.judge;
  const replaces = judgement.judge.visibility === 'full' && (!before || isSotopia(judgement.judge.rubric) || !isSotopia(before.judge.rubric));
  const judge = replaces ? judgement : (before ?? judgement);
  const { attribution, ...rest } = previous ?? {};
  // A split of the scores this judgement replaces would no longer sum to them: it goes (eval --attribute makes it again).
  const keep = attribution && attribution.of !== judgeVariant(judgement.judge) ? { attribution } : {};
  return { ...rest, ...keep, v: 1, judge, variants };
}

/**
 * An episode's `evaluation` field, or null when it has none. The record was validated where it was read
 * (run-dir/episodes-file.ts: a malformed evaluation is a coded error naming its line, never dropped here).
 */
export function readEvaluation(value: Evaluation | null | undefined): Evaluation | null {
  return value ?? null;
}
