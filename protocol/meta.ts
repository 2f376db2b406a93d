import { z } from 'zod';

/** Token usage of one LLM call (or the sum over a turn's calls). */
export const Usage = z.object({
  prompt: z.number().int().nonnegative(),
  completion: z.number().int().nonnegative(),
  cached: z.number().int().nonnegative().default(0),
});
export type Usage = z.infer<typeof Usage>;

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
  policy: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  latencyMs: z.number().nonnegative(),
  usage: Usage.optional(),
  /** Output repair ladder counts: lenient parses and reformat requests used for this move. */
  repairs: z.object({ lenient: z.number().int(), reformat: z.number().int() }).optional(),
  /** Provider retries (429/5xx/timeouts) spent on this move. */
  retries: z.number().int().nonnegative().optional(),
  /** Structured-output fallbacks (server rejected `response_format`). */
  fallbacks: FormatFallbacks.optional(),
});
export type TurnMeta = z.infer<typeof TurnMeta>;

/** An explicit failure (DESIGN invariant 5): never turned into a `none` action. */
export const FailureInfo = z.object({
  code: z.string(),
  message: z.string(),
});
export type FailureInfo = z.infer<typeof FailureInfo>;
