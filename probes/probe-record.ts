import * as z from 'zod';

/**
 * One line of a probe file: a seat's answer to a probe at one turn, with its provenance and, where the
 * probe has ground truth, its score. The probe file is the only thing `parley probe` writes.
 */
export const ProbeRecord = z.object({
  v: z.literal(1),
  run: z.string(),
  runDir: z.string(),
  episode: z.string(),
  scenario: z.string(),
  kind: z.string(),
  mode: z.string(),
  /** A fork's reveals (`agent2.goal:agent1`), when the episode was one: its own arm in the report. */
  reveal: z.array(z.string()).optional(),
  seat: z.string(),
  turn: z.number().int().nonnegative(),
  probe: z.string(),
  question: z.string(),
  /** `provider:model` (or the bot spec) that answered. */
  model: z.string(),
  answer: z.string().nullable(),
  truth: z.union([z.string(), z.number()]),
  scorer: z.enum(['exact', 'numeric', 'judge', 'yesno', 'none']),
  /** 1/0 for exact and yes/no, absolute error for numeric, 0–10 from the judge; null with `why`. */
  score: z.number().nullable(),
  why: z.string().optional(),
  judge: z.string().optional(),
  /** Set when the call failed: the answer is null and nothing was scored. */
  error: z.string().optional(),
});
export type ProbeRecord = z.infer<typeof ProbeRecord>;

/** What makes two probe lines the same question (for resuming: a line already in the file is not asked again). */
export const probeKey = (r: Pick<ProbeRecord, 'run' | 'episode' | 'seat' | 'turn' | 'probe' | 'question' | 'model'>): string =>
  JSON.stringify([r.run, r.episode, r.seat, r.turn, r.probe, r.question, r.model]);
