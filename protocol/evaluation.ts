import * as z from 'zod';
import { OwnCodeField } from './code-schema.js';
import { JudgeView } from './judge-view.js';

/**
 * The `evaluation` field of an EpisodeRecord (one line of `episodes.jsonl`), written by `parley eval` and
 * read by every report, export and resume through run-dir/ (which validates each line against these
 * schemas: a malformed evaluation is `run/bad_evaluation` naming the file and line, never skipped). A judge
 * failure is an explicit `{ ok: false, error }` entry — never a score (DESIGN invariant 5).
 */

/** One dimension's judgement: the reasoning, then the integer score. */
export const DimensionScore = z.object({ reasoning: z.string(), score: z.number().int() });
export type DimensionScore = z.infer<typeof DimensionScore>;

/** What every judgement records of its rubric: enough for the report to lay out columns and ranges. */
export const RubricRef = z.object({
  name: z.string(),
  hash: z.string(),
  dimensions: z.array(z.object({ name: z.string(), label: z.string().optional(), min: z.number().int(), max: z.number().int() })),
});
export type RubricRef = z.infer<typeof RubricRef>;

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

/**
 * `eval --attribute` (issue 40, after sotopia-rl): one seat's episode-level goal score split over its own
 * moves. The attribution model weighs each move (an integer, 0 = no effect … 3 = decisive); a move's share is
 * its weight over the weights' sum times the score, so the shares sum to the score.
 */
export const MoveShare = z.object({ turn: z.number().int().nonnegative(), weight: z.number().int().min(0).max(3), share: z.number() });
export type MoveShare = z.infer<typeof MoveShare>;

export const SeatAttribution = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), score: z.number(), shares: z.array(MoveShare).min(1) }),
  z.object({ ok: z.literal(false), error: EvaluationError }),
]);
export type SeatAttribution = z.infer<typeof SeatAttribution>;

/** How far the shares' sum may stray from the score (floating-point sums of fractions). */
export const SHARE_SUM_TOLERANCE = 0.01;

/** The split of every seat's goal score, recorded beside the judgement it split. */
export const Attribution = z
  .object({
    /** The model that weighed the moves (the judge, or `--attribution-model`). */
    spec: z.string(),
    promptVersion: z.string(),
    /** The dimension whose score is split (`goal`). */
    dimension: z.string(),
    /** The judge variant whose scores were split (`judgeVariant()`): a new judgement of it drops the split. */
    of: z.string(),
    attributedAt: z.string(),
    seats: z.record(z.string(), SeatAttribution),
    calls: z.number().int().nonnegative(),
    usage: z.object({ prompt: z.number().int(), completion: z.number().int() }),
    latencyMs: z.number().nonnegative(),
  })
  .superRefine((a, ctx) => {
    for (const [seat, s] of Object.entries(a.seats)) {
      if (!s.ok) continue;
      const sum = s.shares.reduce((n, x) => n + x.share, 0);
      if (Math.abs(sum - s.score) > SHARE_SUM_TOLERANCE) ctx.addIssue({ code: 'custom', path: ['seats', seat], message: `the shares sum to ${sum}, not to the score ${s.score}` });
    }
  });
export type Attribution = z.infer<typeof Attribution>;

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
  /** `eval --attribute`: each seat's goal score split over its moves (absent unless asked for). */
  attribution: Attribution.optional(),
});
export type Evaluation = z.infer<typeof Evaluation>;

