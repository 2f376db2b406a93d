import { createHash } from 'node:crypto';
import * as z from 'zod';

/**
 * A rubric: the dimensions an LLM judge scores, each with an integer range, the criteria text the judge
 * is given, and the seats it applies to. SOTOPIA-EVAL is one rubric (`sotopia`, built in), not a special
 * case; a user's rubric is a YAML file of the same shape (docs/rubrics.md).
 */

/** Dimension names become JSON keys, CSV columns and `--min NAME=X` arguments: a small safe grammar. */
export const DIMENSION_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** Rubric names appear in report headings and judge variant keys. */
export const RUBRIC_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A judge reads every criterion on every call; longer text is almost certainly a pasted mistake. */
export const MAX_CRITERIA_CHARS = 4000;
/** Each dimension costs reasoning tokens per seat per call; SOTOPIA-EVAL has seven. */
export const MAX_DIMENSIONS = 24;
/** Scores are small integers on a Likert-like scale; a wider range is a typo, not a scale. */
export const MAX_ABS_SCORE = 1000;

const Score = z.number().int('must be an integer').min(-MAX_ABS_SCORE).max(MAX_ABS_SCORE);

/** `seats: all` (the default) or a list of seat roles (`buyer`, `seller`) or seat ids (`agent1`). */
const SeatsRule = z.union([z.literal('all'), z.array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'a seat role or id: letters, digits, _ -')).min(1)]);

/** One dimension as written in a rubric file. */
export const RubricDimensionFile = z
  .object({
    name: z.string().regex(DIMENSION_NAME, 'a dimension name is lower case letters, digits and _ (starting with a letter, at most 40)'),
    range: z
      .tuple([Score, Score], { error: 'range is [min, max], two integers' })
      .refine(([min, max]) => min <= max, { error: (iss) => `minimum ${(iss.input as number[])[0]} exceeds maximum ${(iss.input as number[])[1]}` }),
    criteria: z.string().trim().min(1, 'criteria text is required').max(MAX_CRITERIA_CHARS, `criteria longer than ${MAX_CRITERIA_CHARS} characters`),
    /** Short column label for tables and charts (default: the name). */
    label: z.string().min(1).max(24).optional(),
    seats: SeatsRule.optional(),
  })
  .strict();

/** A rubric file. */
export const RubricFile = z
  .object({
    name: z.string().regex(RUBRIC_NAME, 'a rubric name is letters, digits, . _ - (at most 64)'),
    description: z.string().max(MAX_CRITERIA_CHARS).optional(),
    dimensions: z
      .array(RubricDimensionFile)
      .min(1, 'at least one dimension')
      .max(MAX_DIMENSIONS, `at most ${MAX_DIMENSIONS} dimensions`)
      .superRefine((dims, ctx) => {
        const seen = new Set<string>();
        dims.forEach((d, i) => {
          if (seen.has(d.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `dimension '${d.name}' appears twice` });
          seen.add(d.name);
        });
      }),
  })
  .strict();
export type RubricFile = z.infer<typeof RubricFile>;

/** One dimension a judge scores. */
export interface RubricDimension {
  name: string;
  label: string;
  min: number;
  max: number;
  /** What the judge is told about the dimension (untrusted when it came from a file: sent as JSON data). */
  criteria: string;
  /** `all`, or the seat roles / ids it applies to. */
  seats: 'all' | readonly string[];
}

export interface Rubric {
  name: string;
  description?: string;
  dimensions: readonly RubricDimension[];
  /** sha256 of the canonical JSON of what the judge is given (name, dimensions); recorded with every score. */
  hash: string;
}

/** What every judgement records of its rubric (its schema is part of the record: protocol/evaluation.ts). */
export { RubricRef } from '../../protocol/evaluation.js';
import type { RubricRef } from '../../protocol/evaluation.js';

/** Builds a rubric (and its hash) from its name and dimensions. */
export function makeRubric(name: string, dimensions: readonly RubricDimension[], description?: string): Rubric {
  const canonical = JSON.stringify({ name, dimensions: dimensions.map((d) => ({ name: d.name, min: d.min, max: d.max, criteria: d.criteria, seats: d.seats })) });
  const hash = createHash('sha256').update(canonical).digest('hex');
  return { name, ...(description ? { description } : {}), dimensions, hash };
}

/** A validated rubric file as a rubric. */
export function rubricFromFile(f: RubricFile): Rubric {
  return makeRubric(
    f.name,
    f.dimensions.map((d) => ({ name: d.name, label: d.label ?? d.name, min: d.range[0], max: d.range[1], criteria: d.criteria, seats: d.seats ?? 'all' })),
    f.description,
  );
}

/** The record of a rubric stored with each judgement. */
export function rubricRef(r: Rubric): RubricRef {
  return { name: r.name, hash: r.hash, dimensions: r.dimensions.map((d) => ({ name: d.name, label: d.label, min: d.min, max: d.max })) };
}

/** The dimensions that apply to a seat, given its role (Craigslist `buyer`/`seller`, else none) and id. */
export function dimensionsFor(r: Rubric, seat: { seat: string; role?: string | null }): RubricDimension[] {
  return r.dimensions.filter((d) => d.seats === 'all' || d.seats.includes(seat.seat) || (!!seat.role && d.seats.includes(seat.role)));
}
