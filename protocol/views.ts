import * as z from 'zod';
import { Action, ActionType } from './action.js';
import { Mode } from './modes.js';
import { Hint, ProfileView, RelationshipLevel } from './profile.js';
import { TaskKind, TaskPrivate } from './task.js';
import { oneLine } from './one-line.js';

/** The part of a scenario every participant may see (judge-only text already removed). */
export const PublicScenario = z.object({
  id: z.string(),
  kind: TaskKind,
  text: z.string(),
  /** Seat ids in turn order; names are not here (a stranger does not know them). */
  seats: z.array(z.string()).min(1),
});
export type PublicScenario = z.infer<typeof PublicScenario>;

/** A seat's own private state: full profile, goal, hints, task data. */
export const SelfView = z.object({
  seat: z.string(),
  profile: ProfileView,
  goal: z.string(),
  hints: z.array(Hint),
  task: TaskPrivate.nullable(),
});
export type SelfView = z.infer<typeof SelfView>;

/** What a seat sees of a partner through their relationship. */
export const PartnerView = z.object({
  seat: z.string(),
  relationship: RelationshipLevel,
  profile: ProfileView,
  /** SOTOPIA's relationship background story: only with `--show-relationship-story` (it often names secrets). */
  sharedHistory: z.string().optional(),
});
export type PartnerView = z.infer<typeof PartnerView>;

/**
 * A partner's private state, sent in a `peer.state` frame: the fields of that partner's own view, so the
 * same schema. A mindreader gets the partner's view whole; a shared field or a fork's reveal fills only
 * some of them (the rest empty).
 */
export const PeerPrivateState = SelfView;
export type PeerPrivateState = z.infer<typeof PeerPrivateState>;

/** Episode limits a seat is told at welcome. */
export const Limits = z.object({
  maxTurns: z.number().int().positive(),
  turnDeadlineMs: z.number().int().positive(),
  actions: z.array(ActionType),
});
export type Limits = z.infer<typeof Limits>;

/** Everything the script writer gets: both sides in full, minus judge-only text. */
export const ScriptBackground = z.object({
  scenario: PublicScenario,
  /** Each seat's own state (as its agent would be told it) with what it sees of its partners. */
  seats: z.array(SelfView.extend({ partners: z.array(PartnerView) })),
  mode: Mode,
});
export type ScriptBackground = z.infer<typeof ScriptBackground>;

/**
 * One written turn of a script. `seat` names one of the scenario's seats (checked by the engine); one line
 * at the edge, because an unknown seat is quoted in the record's termination detail.
 */
export const ScriptTurn = z.object({ seat: oneLine(64), action: Action });
export type ScriptTurn = z.infer<typeof ScriptTurn>;
