import * as z from 'zod';

/** SOTOPIA's action types, spelled as SOTOPIA spells them. */
export const ACTION_TYPES = ['none', 'speak', 'non-verbal communication', 'action', 'leave'] as const;
export const ActionType = z.enum(ACTION_TYPES);
export type ActionType = z.infer<typeof ActionType>;

/**
 * One move of a seat in a turn. `argument` is the utterance, gesture or physical action ('' for none/leave).
 * 8,000 characters: about 2,000 tokens, twice the longest reply SOTOPIA let a model write (1,024 tokens);
 * an edge limit on one move from another process.
 */
export const Action = z.object({
  type: ActionType,
  argument: z.string().max(8000),
  /**
   * A private move (SOTOPIA's `AgentAction.to`): the seats it is addressed to. Only they and the speaker
   * receive it; absent for a public move. The schema bounds only size (a scenario has at most 12 seats,
   * a seat id 32 characters); whether the recipients are right for the episode (seats of it, not the
   * speaker, none twice, at least one) is the orchestrator's check (`recipientProblem`), answered with a
   * coded refusal (`turn/bad_recipients`), so a bad list is a refused move and never a dropped frame.
   */
  to: z.array(z.string().max(32)).max(12).optional(),
});
export type Action = z.infer<typeof Action>;

/**
 * The action types that may be private. Speech and gestures (SOTOPIA lets any type carry `to`); not
 * `action`, whose task moves (offers, votes, selections) decide outcomes every seat must be able to
 * read, and not `none` or `leave`, which change whose turn comes next for everyone.
 */
export const PRIVATE_ACTION_TYPES: ReadonlySet<ActionType> = new Set<ActionType>(['speak', 'non-verbal communication']);

/**
 * Why `to` cannot address this move in an episode with these seats, or null when it can (or the move is
 * public). One rule for the orchestrator's check and for clients that want to refuse before sending.
 */
export function recipientProblem(action: Action, speaker: string, seats: readonly string[]): string | null {
  const to = action.to;
  if (to === undefined) return null;
  if (!PRIVATE_ACTION_TYPES.has(action.type)) return `a '${action.type}' move cannot be private (to: only ${[...PRIVATE_ACTION_TYPES].join(', ')})`;
  if (to.length === 0) return 'to names no seat (leave it out for a public move)';
  const seen = new Set<string>();
  for (const seat of to) {
    if (seat === speaker) return `to names the speaker ${speaker}`;
    if (!seats.includes(seat)) return `to names ${JSON.stringify(seat)}, not a seat of this episode (seats: ${seats.join(', ')})`;
    if (seen.has(seat)) return `to names ${seat} twice`;
    seen.add(seat);
  }
  return null;
}

/**
 * The seats that receive a move: every seat for a public move, else the speaker and its recipients, in
 * seat order. The one routing rule of private moves (turn loop, fork prefix, replay, audits).
 */
export function receiversOf(action: Pick<Action, 'to'>, speaker: string, seats: readonly string[]): string[] {
  if (action.to === undefined) return [...seats];
  const to = new Set([speaker, ...action.to]);
  return seats.filter((s) => to.has(s));
}
