import * as z from 'zod';
import { ReportedCodeField } from './code-schema.js';
import { oneLine } from './one-line.js';

/**
 * Limits on what a seat may report about its own moves: it comes from another process (possibly another
 * machine), so it is range-checked and size-capped before it reaches a record. A frame over them is
 * refused with `protocol/bad_frame`, never stored.
 */
export const META_LIMITS = {
  /**
   * Tokens ONE move's calls can plausibly use: far above any context window today, far below nonsense.
   * A per-move edge limit only: totals over moves are never capped by it (see `Total`).
   */
  maxPromptTokens: 10_000_000,
  maxCompletionTokens: 1_000_000,
  /** A turn cannot take longer than a day. */
  maxLatencyMs: 86_400_000,
  maxRetries: 1_000,
  /** `params`: at most this many keys, and this many bytes as JSON. */
  maxParams: 32,
  maxParamsBytes: 4096,
} as const;

/** Provider and model names: identifiers like `openai`, `gpt-3.5-turbo-0613`, `mistralai/Mixtral-8x7B-Instruct-v0.1`. */
const Name = z.string().min(1).max(200).regex(/^[A-Za-z0-9/~][A-Za-z0-9._:/@+~-]*$/, 'must be a provider or model name');

/**
 * A count Parley sums itself (tokens over a run, a model, a judge pass). Not capped by any study size:
 * the paper's grid alone is tens of millions of tokens. The only bound is JSON's: beyond 2^53 an integer
 * is no longer exact once written and read back.
 */
export const Total = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Token usage: one LLM call, a turn's calls, or a total over a run. Totals are computed by Parley from
 * records that were range-checked when they came in (`MoveUsage`), so this shape has no study-size cap.
 */
export const Usage = z.object({
  prompt: Total,
  completion: Total,
  cached: Total.default(0),
});
export type Usage = z.infer<typeof Usage>;

/**
 * Usage as one move reports it (from another process, possibly another machine): capped per move
 * (META_LIMITS), so a broken or hostile report is refused at the edge instead of inflating a total.
 */
export const MoveUsage = z.object({
  prompt: z.number().int().nonnegative().max(META_LIMITS.maxPromptTokens),
  completion: z.number().int().nonnegative().max(META_LIMITS.maxCompletionTokens),
  cached: z.number().int().nonnegative().max(META_LIMITS.maxPromptTokens).default(0),
});

/**
 * The structured-output ladder's fallbacks over a move's LLM calls: calls answered in JSON mode or with
 * the schema in the prompt because the server rejected a stronger `response_format`, and how many
 * rejections were met. Counted in run.json; absent when nothing fell back.
 */
export const FormatFallbacks = z.object({
  rejected: z.number().int().nonnegative(),
  jsonMode: z.number().int().nonnegative(),
  prompt: z.number().int().nonnegative(),
});
export type FormatFallbacks = z.infer<typeof FormatFallbacks>;

/**
 * Provenance a policy reports with each move (DESIGN invariant 6): who produced it, how, at what cost.
 * Bots report only `policy` and `latencyMs`.
 */
export const TurnMeta = z.object({
  policy: oneLine(200),
  provider: Name.optional(),
  model: Name.optional(),
  /** Sampling parameters, as sent to the provider: small (key count and JSON size capped). */
  params: z
    .record(oneLine(64), z.unknown())
    .refine((p) => Object.keys(p).length <= META_LIMITS.maxParams, `at most ${META_LIMITS.maxParams} params`)
    .refine((p) => jsonBytes(p) <= META_LIMITS.maxParamsBytes, `params must be at most ${META_LIMITS.maxParamsBytes} bytes as JSON`)
    .optional(),
  latencyMs: z.number().nonnegative().max(META_LIMITS.maxLatencyMs),
  usage: MoveUsage.optional(),
  /** Output repair ladder counts: lenient parses and reformat requests used for this move. */
  repairs: z.object({ lenient: z.number().int().min(0).max(META_LIMITS.maxRetries), reformat: z.number().int().min(0).max(META_LIMITS.maxRetries) }).optional(),
  /**
   * `provider:model` the move's reformat request went to when it was not the seat's own conversation
   * (`--protocol paper` or `--reformat-model`: SOTOPIA sent it to gpt-3.5-turbo). Its tokens are in `usage`.
   */
  reformatModel: z.string().max(200).regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+~-]*$/, 'must be provider:model').optional(),
  /** Provider retries (429/5xx/timeouts) spent on this move. */
  retries: z.number().int().nonnegative().max(META_LIMITS.maxRetries).optional(),
  /** Structured-output fallbacks (server rejected `response_format`). */
  fallbacks: FormatFallbacks.optional(),
});
export type TurnMeta = z.infer<typeof TurnMeta>;

/** An explicit failure (DESIGN invariant 5): never turned into a `none` action. */
export const FailureInfo = z.object({
  /**
   * Reported, not own (protocol/code-schema.ts): a turn's failure comes from the seat's process through
   * `turn.fail`/`script.fail`, and that process may be a remote agent of another version.
   */
  code: ReportedCodeField,
  message: z.string(),
});

/**
 * A failure as a seat reports it on the wire: size-capped (records keep what was accepted), and its code in
 * the grammar of every code table (`area/reason`): a code names a failure and carries no text, so a
 * newline or markup in it (issue 19, r01/r02: it is the termination's detail too) is refused here.
 */
export const ReportedFailure = FailureInfo.extend({ message: z.string().max(2000) });

function jsonBytes(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value) ?? '').length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
export type FailureInfo = z.infer<typeof FailureInfo>;
