import { ErrorCode, type EpisodeRecord, type Evaluation, type SeatEndScore, type SeatJudgeScore, type SeatTaskScore } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';

/**
 * Scores an episode as it ends, before its seats are told (`parley serve --judge`): the judgement
 * `parley eval` would store on the record, and each seat's part of it for that seat's `episode.end`.
 * Given by the command that composes the run (the orchestrator never imports the evaluator); expected
 * failures are per-seat coded results, and a throw is a bug, recorded as such on every seat.
 */
export type EpisodeScorer = (record: EpisodeRecord, ctx: ScorerContext) => Promise<ScoredEpisode>;

/** What a scorer is given beside the record: the scenario, the simulation protocol's name (absent: the default) and a stop signal. */
export interface ScorerContext {
  scenario: Scenario;
  protocol: string | undefined;
  signal: AbortSignal;
}

export interface ScoredEpisode {
  /** The record's `evaluation` field with the new judgement added. */
  evaluation: Evaluation;
  /** Per seat, its own judge result (what its `episode.end` carries). */
  seats: Record<string, SeatJudgeScore>;
}

/** What each seat's `episode.end` carries, and the evaluation to store on the record (if a judge scored). */
export interface EndScores {
  seats: Map<string, SeatEndScore>;
  evaluation?: Evaluation;
}

/** The task's verdict for every seat (the same for all: a task succeeds or fails as a whole), if it has one. */
export function taskScore(record: EpisodeRecord): SeatTaskScore | undefined {
  const { outcome } = record;
  return outcome.success === null ? undefined : { kind: outcome.kind, success: outcome.success };
}

/**
 * The end scores of a finished episode: a failed episode gets none (it is not judged either: `parley
 * eval` skips failed records, whose transcripts are cut short); otherwise the task's verdict and, with a
 * scorer, the judge's scores of each seat.
 */
export async function endScores(record: EpisodeRecord, scorer: EpisodeScorer | undefined, ctx: ScorerContext): Promise<EndScores> {
  const seats = new Map<string, SeatEndScore>();
  if (record.status === 'failed') return { seats };
  const task = taskScore(record);
  let scored: ScoredEpisode | null = null;
  let bug: string | null = null;
  if (scorer) {
    try {
      scored = await scorer(record, ctx);
    } catch (err) {
      bug = (err as Error).message;
    }
  }
  for (const { seat } of record.seats) {
    const judge = scored?.seats[seat] ?? (bug !== null ? { ok: false as const, judge: 'unknown', rubric: 'unknown', error: { code: ErrorCode.Internal, message: bug.slice(0, 2000) } } : undefined);
    const score: SeatEndScore = { ...(task ? { task } : {}), ...(judge ? { judge } : {}) };
    if (task || judge) seats.set(seat, score);
  }
  return scored ? { seats, evaluation: scored.evaluation } : { seats };
}
