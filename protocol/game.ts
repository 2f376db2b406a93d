import * as z from 'zod';

/**
 * Hidden-role games on the wire and in records (issue 39). The rules themselves are data in
 * simulation/games/; these are the shapes a seat, a record and a report share.
 */

/** Edge bounds: a game has at most 12 seats; ids and names are short. */
const SeatList = z.array(z.string().max(64)).max(12);
const Short = z.string().max(200);

/**
 * One seat's private card, dealt by the orchestrator at the start of an episode: its role and team, the
 * teammates it may know (a team with a channel: the werewolves know each other), and in a word game its word.
 */
export const GamePrivate = z.object({
  kind: z.literal('game'),
  game: Short,
  role: Short,
  roleName: Short,
  team: Short,
  teamName: Short,
  teammates: SeatList,
  word: Short.optional(),
  /** Sentences a bot may say about its own word (never the other word's). */
  clues: z.array(z.string().max(500)).max(20).optional(),
});
export type GamePrivate = z.infer<typeof GamePrivate>;

/**
 * What a `turn.request` asks in a game: the phase, whether to speak or move, who will receive the act
 * (absent: everyone), and the move's verb and the seats it may target.
 */
export const GameStep = z.object({
  phase: Short,
  title: Short,
  round: z.number().int().positive(),
  act: z.enum(['speak', 'move']),
  to: SeatList.optional(),
  /** The move's verb, what it does (simulation/games/definition.ts MoveEffect) and the seats it may target. */
  move: z.object({ verb: Short, effect: z.enum(['attack', 'protect', 'inspect', 'vote']), targets: SeatList }).optional(),
});
export type GameStep = z.infer<typeof GameStep>;

/** A fact a notice carries, for bots and the metrics; `text` says the same in words. */
export const GameFact = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('phase') }),
  /** A seat is out: voted out or killed in the night; its role and team when the game reveals them. */
  z.object({ kind: z.literal('out'), seat: Short, how: z.enum(['vote', 'night']), role: Short.optional(), team: Short.optional() }),
  z.object({ kind: z.literal('nobody_out'), how: z.enum(['vote', 'night']) }),
  /** An inspection's result: only the inspecting seat receives it. */
  z.object({ kind: z.literal('inspected'), seat: Short, team: Short, teamName: Short }),
  /** The ballots of a vote, shown when it is counted (null: no valid vote). */
  z.object({ kind: z.literal('ballots'), ballots: z.record(z.string(), Short.nullable()) }),
  z.object({ kind: z.literal('end'), winner: Short }),
  /** The seat's own move had no effect (an unknown or forbidden target). */
  z.object({ kind: z.literal('void'), reason: Short }),
]);
export type GameFact = z.infer<typeof GameFact>;

/** The game's record of one episode: roles as dealt, who went out when, every ballot, and who won. */
export const GameRecord = z.object({
  game: Short,
  roles: z.record(z.string(), Short),
  teams: z.record(z.string(), Short),
  word: z.record(z.string(), Short).optional(),
  rounds: z.number().int().nonnegative(),
  out: z.array(z.object({ seat: Short, how: z.enum(['vote', 'night']), round: z.number().int().positive() })),
  votes: z.array(z.object({ round: z.number().int().positive(), voter: Short, target: Short.nullable() })),
  inspections: z.array(z.object({ round: z.number().int().positive(), seer: Short, target: Short })).default([]),
  winner: Short.nullable(),
  /** `win` (a win rule), `timeout` (the rounds ran out) or `stopped` (the episode ended otherwise). */
  how: z.enum(['win', 'timeout', 'stopped']),
});
export type GameRecord = z.infer<typeof GameRecord>;
