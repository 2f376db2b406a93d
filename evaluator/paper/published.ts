import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { packagePath } from '../../disk/package-root.js';
import { SOCIAL_DIMENSIONS } from '../dimensions.js';

/**
 * The metrics the paper publishes that Parley computes the same way (docs/metrics.md): the goal score,
 * words per turn, the Craigslist deal rate, the MutualFriends first mention, and the other six
 * SOTOPIA-EVAL dimensions (the paper's appendix D tables).
 */
export const PAPER_METRICS = ['goal', 'wordsPerTurn', 'deal', 'firstMention', ...SOCIAL_DIMENSIONS] as const;
export type PaperMetric = (typeof PAPER_METRICS)[number];

/** One published number: a fact read off the paper, with where it is printed. */
export const PublishedNumber = z
  .object({
    metric: z.enum(PAPER_METRICS),
    mode: z.enum(['script', 'agents', 'mindreaders']),
    /** Matched case-insensitively as a substring of a run row's model label (`gpt-3.5-turbo-0613 × gpt-3.5-turbo-0613`). */
    model: z.string().min(1),
    /** The paper's Agents-ft (GPT-3.5 finetuned on script simulations): matched only against fine-tuned model labels (`ft:`). */
    finetuned: z.boolean().optional(),
    /** The paper's character variant; `names-only` (its simplified characters) is never matched against a Parley run. */
    characters: z.enum(['rich', 'names-only']).optional(),
    subset: z.string().min(1),
    value: z.number(),
    lo: z.number().optional(),
    hi: z.number().optional(),
    /** The value as the paper prints it, when that differs from `value` (e.g. `94%`). */
    printed: z.string().optional(),
    /** How the entry was attributed where the paper's sentence leaves it implicit, or an inconsistency in the paper. */
    note: z.string().optional(),
    /** Figure, table or section of the paper. */
    where: z.string().min(1),
  })
  .strict();
export type PublishedNumber = z.infer<typeof PublishedNumber>;

export const PublishedNumbers = z.object({
  citation: z.string().min(1),
  source: z.string().min(1),
  numbers: z.array(PublishedNumber),
  /** What the paper publishes that is not (yet) in `numbers`. */
  notTranscribed: z.array(z.string()).default([]),
});
export type PublishedNumbers = z.infer<typeof PublishedNumbers>;

/** The shipped data file. */
export const PUBLISHED_FILE = packagePath('evaluator', 'paper', 'published.json');

/** Loads the paper's numbers: `file`, else `$PARLEY_PAPER_NUMBERS`, else the shipped file. Throws naming the file and field. */
export function loadPublished(file: string = process.env.PARLEY_PAPER_NUMBERS || PUBLISHED_FILE): PublishedNumbers {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`paper numbers ${file}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = PublishedNumbers.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`paper numbers ${file}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  return parsed.data;
}
