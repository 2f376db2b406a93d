import * as z from 'zod';

/**
 * The JSON a `parley study` server answers its pages with (orchestrator/study/): a participant's state
 * (`GET /api/study/state`) and the organiser's counts (`GET /api/organiser`). Schemas here so the
 * server and the pages (web/study, web/organiser) share one shape.
 */

export const STUDY_STATES = ['waiting', 'playing', 'survey', 'done'] as const;

export const StudyCompletion = z.union([z.object({ code: z.string() }), z.object({ redirect: z.string() })]);

/** A participant's state as their page gets it. */
export const ParticipantView = z.object({
  version: z.number().int(),
  state: z.enum(STUDY_STATES),
  /** Waiting: people waiting now (this participant included), seconds before the partner policy steps in. */
  waiting: z.object({ count: z.number().int(), secondsLeft: z.number().int().nullable() }).optional(),
  /** Playing: the seat token for the seat page (`/seat#token=…`). */
  seat: z.string().optional(),
  completion: StudyCompletion.optional(),
  canPlayAgain: z.boolean().optional(),
});
export type ParticipantView = z.infer<typeof ParticipantView>;

/** What the organiser's page shows: counts only, never a participant's answers or an id. */
export const OrganiserStats = z.object({
  participants: z.record(z.enum(STUDY_STATES), z.number().int()),
  refusals: z.number().int(),
  waitingNow: z.number().int(),
  pairsPlaying: z.number().int(),
  aiFallbackPlaying: z.number().int(),
  episodesCompleted: z.number().int(),
  aiFallbackEpisodes: z.number().int(),
  /** Mean minutes from consent to completion over participants who completed (for fair pay); null before any. */
  meanMinutesPerParticipant: z.number().nullable(),
  attentionFailures: z.object({ answers: z.number().int(), participants: z.number().int() }),
  withdrawals: z.number().int(),
});
export type OrganiserStats = z.infer<typeof OrganiserStats>;
