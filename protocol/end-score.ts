import * as z from 'zod';
import { ReportedCodeField } from './code-schema.js';
import { oneLine } from './one-line.js';
import { TaskKind } from './task.js';

/**
 * What one seat is told of its own result when its episode ends (`episode.end.score`): the reward a
 * trainer driving the seat reads (clients/python). Only the receiving seat's own result, never a
 * partner's. Edge limits as elsewhere in frames.ts: far above what Parley sends.
 */

/** The task's verdict from explicit moves (MutualFriends: both selected the shared friend; Craigslist: a deal). */
export const SeatTaskScore = z.object({ kind: TaskKind, success: z.boolean() }).strict();
export type SeatTaskScore = z.infer<typeof SeatTaskScore>;

/**
 * The judge's scores of this seat (`parley serve --judge`), the same judgement `parley eval` stores on
 * the record; a judge that failed for this seat says so with its code (never a 0 score).
 */
export const SeatJudgeScore = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), judge: oneLine(200), rubric: oneLine(200), scores: z.record(oneLine(100), z.number()) }).strict(),
  z.object({ ok: z.literal(false), judge: oneLine(200), rubric: oneLine(200), error: z.object({ code: ReportedCodeField, message: z.string().max(2000) }).strict() }).strict(),
]);
export type SeatJudgeScore = z.infer<typeof SeatJudgeScore>;

/** A seat's end score: the task's verdict where the task has one, the judge's where a judge scored. */
export const SeatEndScore = z.object({ task: SeatTaskScore.optional(), judge: SeatJudgeScore.optional() }).strict();
export type SeatEndScore = z.infer<typeof SeatEndScore>;
