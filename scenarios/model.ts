import * as z from 'zod';
import { Hint, RelationshipLevel, SeatId, TaskKind, TaskPrivate } from '../protocol/index.js';

/**
 * The full scenario model: the world as the orchestrator and the judge know it. Agents never receive
 * this type; they receive what `observe()` projects from it.
 *
 * One record is one runnable scenario instance: a situation bound to a pair (or more) of characters.
 * SOTOPIA's 90 environments × 5 fixed character pairs import as 450 records sharing `envId`.
 */

/** A character, with SOTOPIA's profile fields. Only `id`, `name` and `secret` are required. */
export const Character = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  age: z.number().int().nonnegative().optional(),
  occupation: z.string().optional(),
  gender: z.string().optional(),
  pronouns: z.string().optional(),
  publicInfo: z.string().optional(),
  bigFive: z.string().optional(),
  moralValues: z.array(z.string()).optional(),
  schwartzValues: z.array(z.string()).optional(),
  personality: z.string().optional(),
  decisionStyle: z.string().optional(),
  mbti: z.string().optional(),
  secret: z.string(),
});
export type Character = z.infer<typeof Character>;

/**
 * A piece of scenario text and who may see it. `all` = every participant (and the judge);
 * a list of seat ids = only those seats (and the judge). Judge-only text lives in `judgeOnly`.
 */
export const Segment = z.object({
  text: z.string(),
  visibleTo: z.union([z.literal('all'), z.array(z.string()).min(1)]),
});
export type Segment = z.infer<typeof Segment>;

/** Private fields a scenario may explicitly share with partners (delivered as a logged `peer.state`). */
export const SharedField = z.enum(['goal', 'secret', 'task']);

export const ScenarioSeat = z.object({
  /** Stable seat id, used in frames, records and ledger file names. */
  seat: SeatId,
  character: Character,
  /** The seat's goal without its private hints. Owner only (partners see it only as mindreaders). */
  goal: z.string(),
  hints: z.array(Hint).default([]),
  /** The character's secret, repeated here so records are self-describing (equals character.secret). */
  secret: z.string(),
  task: TaskPrivate.nullable().default(null),
  shares: z.array(SharedField).default([]),
});
export type ScenarioSeat = z.infer<typeof ScenarioSeat>;

export const Relationship = z.object({
  level: RelationshipLevel,
  /** Shared history of the characters (SOTOPIA's background_story): the judge's; seats get it only when a run opts in. */
  story: z.string().optional(),
});
export type Relationship = z.infer<typeof Relationship>;

/**
 * The relationship of one pair of seats in a group. A pair without an entry has the scenario's
 * `relationship` (so a two-seat scenario needs none, and a group may name only the pairs that differ).
 */
export const PairRelationship = Relationship.extend({
  seats: z.tuple([z.string(), z.string()]),
});
export type PairRelationship = z.infer<typeof PairRelationship>;

/**
 * Who speaks next. `round_robin`: seat order, skipping seats that left. `speaker_names_next`: the seat
 * whose character the speaker addresses by name (the last participant named in the move), falling back to
 * round robin when nobody, the speaker itself or a seat that left is named.
 */
export const TurnOrder = z.enum(['round_robin', 'speaker_names_next']);
export type TurnOrder = z.infer<typeof TurnOrder>;

/** Answer and shared facts of a task: judge and metrics only. */
export const TaskTruth = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('mutual_friends'), answer: z.record(z.string(), z.string()) }),
  z.object({
    kind: z.literal('craigslist'),
    title: z.string(),
    category: z.string(),
    listingPrice: z.number().positive(),
    description: z.string(),
  }),
  z.object({ kind: z.literal('auction'), title: z.string(), description: z.string() }),
  z.object({ kind: z.literal('split'), resource: z.string(), total: z.number().int().positive() }),
  /** A hidden-role game: which definition (simulation/games/) the orchestrator deals and enforces. */
  z.object({ kind: z.literal('game'), game: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/) }),
]);
export type TaskTruth = z.infer<typeof TaskTruth>;

export const Scenario = z.object({
  id: z.string().min(1),
  /** Groups instances of one situation (SOTOPIA env_id); equals `id` for single-pair sets. */
  envId: z.string().min(1),
  /** Character pair key (SOTOPIA combo_id); part of the deterministic episode id. */
  pairId: z.string().min(1),
  codename: z.string().optional(),
  /** Where it came from: builtin, sotopia, cocoa-craigslist, cocoa-mutualfriends, generated:<model>. */
  source: z.string(),
  subsets: z.array(z.string()).default([]),
  kind: TaskKind,
  /** Scenario text, each segment with its audience. */
  narrative: z.array(Segment).min(1),
  /** Text only the judge may see (SOTOPIA's `<p viewer="environment">`); '' when none. */
  judgeOnly: z.string().default(''),
  /** The relationship of every pair of seats, unless `relationships` names the pair. */
  relationship: Relationship,
  /** Groups: a relationship per pair of seats that differs from `relationship` (checked: real seats, each pair once). */
  relationships: z.array(PairRelationship).optional(),
  /** How the next speaker is chosen (absent: round robin). */
  turnOrder: TurnOrder.optional(),
  /** Seats in turn order. */
  seats: z.array(ScenarioSeat).min(2),
  truth: TaskTruth.nullable().default(null),
});
export type Scenario = z.infer<typeof Scenario>;
export type ScenarioInput = z.input<typeof Scenario>;
