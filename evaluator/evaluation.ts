import { z } from 'zod';
import { JudgeView, OwnCodeField } from '../protocol/index.js';
import { RubricRef } from './rubric/rubric.js';
import { isSotopia } from './rubric/builtin.js';

/**
 * The `evaluation` field of an EpisodeRecord (one line of `episodes.jsonl`), written by `parley eval`.
 * A judge failure is an explicit `{ ok: false, error }` entry — never a score (DESIGN invariant 5).
 */

/** One dimension's judgement: the reasoning, then the integer score. */
export const DimensionScore = z.object({ reasoning: z.string(), score: z.number().int() });
export type DimensionScore = z.infer<typeof DimensionScore>;

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

/** A seat's scores as stored: dimension name → reasoning and score (the rubric is named in the judge record). */
export const SeatScores = z.record(z.string(), DimensionScore);
export type SeatScores = z.infer<typeof SeatScores>;

/** Why an evaluation failed, after its retry. */
export const EvaluationError = z.object({
  /** Own code (`JudgeErrorCode`): only Parley's evaluator writes verdicts (protocol/code-schema.ts). */
  code: OwnCodeField,
  message: z.string(),
  attempts: z.number().int().nonnegative(),
});
export type EvaluationError = z.infer<typeof EvaluationError>;

export const SeatJudgement = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), scores: SeatScores }),
  z.object({ ok: z.literal(false), error: EvaluationError }),
]);
export type SeatJudgement = z.infer<typeof SeatJudgement>;

/** A deal as the LLM judge read it from the dialogue (Craigslist); separate from the explicit-move outcome. */
export const JudgedDeal = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), deal: z.boolean(), price: z.number().positive().nullable(), reasoning: z.string() }),
  z.object({ ok: z.literal(false), error: EvaluationError }),
]);
export type JudgedDeal = z.infer<typeof JudgedDeal>;

export const JudgeVisibility = z.enum(['full', 'blind']);
export type JudgeVisibility = z.infer<typeof JudgeVisibility>;

/** Who judged, how, and at what cost. */
export const JudgeInfo = z.object({
  spec: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
  /** `full`: both goals, secrets and judge-only text (SOTOPIA's judge); `blind`: public transcript and the seat's own goal. */
  visibility: JudgeVisibility,
  temperature: z.number(),
  /** Version of the prompt + rubric wording, so scores from different wordings are not mixed silently. */
  promptVersion: z.string(),
  /** What the full judge was shown: `paper` (SOTOPIA's judge information) or `parley` (the richer view); absent on older records = parley. */
  view: JudgeView.optional(),
  /** The rubric scored: name, hash of its text, and its dimensions' ranges; absent on older records = SOTOPIA-EVAL. */
  rubric: RubricRef.optional(),
});
export type JudgeInfo = z.infer<typeof JudgeInfo>;

export const EpisodeJudgement = z.object({
  judge: JudgeInfo,
  evaluatedAt: z.string(),
  /** Seat id → scores or error. Every seat of the episode has an entry. */
  seats: z.record(z.string(), SeatJudgement),
  /** Craigslist episodes only. */
  deal: JudgedDeal.optional(),
  calls: z.number().int().nonnegative(),
  usage: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  latencyMs: z.number().nonnegative(),
  /** Judge calls answered with the schema in the prompt or in JSON mode because the server rejected a stronger `response_format`. */
  formatFallbacks: z.number().int().nonnegative().optional(),
});
export type EpisodeJudgement = z.infer<typeof EpisodeJudgement>;

/** The `evaluation` field of an episode record. */
export const Evaluation = z.object({
  v: z.literal(1),
  /** The judgement the report's judge tables use: the latest full-background one (else the first variant). */
  judge: EpisodeJudgement.optional(),
  /**
   * Every judge variant run on the episode, by `judgeVariant()` (`openai:gpt-4 full`, `… blind`): a
   * blind judge adds its scores next to the full-background ones, never replacing them.
   */
  variants: z.record(z.string(), EpisodeJudgement).optional(),
});
export type Evaluation = z.infer<typeof Evaluation>;

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
  return { ...(previous ?? {}), v: 1, judge, variants };
}

/** Reads an episode's `evaluation` field; null when absent or not in this format. */
export function readEvaluation(value: unknown): Evaluation | null {
  if (value === undefined || value === null) return null;
  const parsed = Evaluation.safeParse(value);
  return parsed.success ? parsed.data : null;
}
