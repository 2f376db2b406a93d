import * as z from 'zod';
import { normaliseAnnotator } from './annotator-name.js';

/**
 * One human answer of the pairwise naturalness study (`parley annotate`), one JSONL line each.
 * `winner` is in run terms — `A` is RUN_A, `B` RUN_B — whatever order the annotator saw them in
 * (`aShownFirst`), the same convention as the LLM judge's verdicts (`parley compare --judge`), and `key`
 * is the same pair key, so the two can be matched.
 */
export const Annotation = z.object({
  v: z.literal(1),
  at: z.string(),
  /** Bounds as the study's form takes them (evaluator/human/study.ts): a hand-edited file is held to the same. */
  annotator: z.string().min(1).max(100),
  key: z.string(),
  scenarioId: z.string(),
  runA: z.string(),
  runB: z.string(),
  episodeA: z.string(),
  episodeB: z.string(),
  aShownFirst: z.boolean(),
  winner: z.enum(['A', 'B']),
  reason: z.string().max(2000).optional(),
});
export type Annotation = z.infer<typeof Annotation>;

/** Reads an annotations file; bad lines are reported with their number, never skipped silently. */
export function parseAnnotations(text: string): { annotations: Annotation[]; bad: Array<{ line: number; message: string }> } {
  const annotations: Annotation[] = [];
  const bad: Array<{ line: number; message: string }> = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      const r = Annotation.safeParse(JSON.parse(l));
      if (r.success) annotations.push(r.data);
      else bad.push({ line: i + 1, message: r.error.issues[0]?.message ?? 'invalid' });
    } catch (err) {
      bad.push({ line: i + 1, message: (err as Error).message });
    }
  });
  return { annotations, bad };
}

/**
 * The latest answer of each annotator per pair (an annotator who answered twice counts once; `parley
 * annotate` refuses a second answer, so only a file from before that rule or edited by hand has one),
 * with annotator names in their normal form, so look-alike spellings are one annotator.
 */
export function latestAnswers(annotations: readonly Annotation[]): Annotation[] {
  const by = new Map<string, Annotation>();
  for (const a of annotations) {
    const annotator = normaliseAnnotator(a.annotator);
    by.set(`${annotator}\u0000${a.key}`, { ...a, annotator });
  }
  return [...by.values()];
}
