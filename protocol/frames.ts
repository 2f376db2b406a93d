import * as z from 'zod';
import { Action, ActionType } from './action.js';
import { ReportedCodeField } from './code-schema.js';
import { ReportedFailure, TurnMeta } from './meta.js';
import { GameFact, GameStep } from './game.js';
import { Mode } from './modes.js';
import { SeatEndScore } from './end-score.js';
import { oneLine } from './one-line.js';
import { ProtocolView } from './simulation-protocol.js';
import { Limits, PartnerView, PeerPrivateState, PublicScenario, ScriptBackground, ScriptTurn, SelfView } from './views.js';
import { PROTOCOL_VERSION } from './version.js';

/**
 * Fields every frame carries. `id` is unique per sender; `error.re` points back at it.
 * Bounds in this file are per-frame edge limits on what another process may send (each sized far above
 * anything Parley itself sends: ids are nanoids, tokens and secrets 21-43 characters); totals are never
 * bounded here.
 */
const envelope = { v: z.literal(PROTOCOL_VERSION), id: z.string().min(1).max(64) };
const frame = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ ...envelope, type: z.literal(type), ...shape }).strict();

// ───────────── agent → orchestrator ─────────────

/**
 * First frame on a connection: claim a reserved seat with its one-time token; to reconnect (the token
 * is spent by then), the token plus the resume secret of the latest welcome.
 */
export const SeatJoin = frame('seat.join', {
  token: z.string().min(1).max(128),
  resume: z.string().min(1).max(128).optional(),
  client: z.object({
    name: oneLine(100),
    version: oneLine(50),
    policy: oneLine(200),
    /**
     * The OS pid of the process holding the seat (recorded for the isolation audit). Absent for a
     * browser page, which has no process of its own to report.
     */
    pid: z.number().int().positive().optional(),
    host: oneLine(200).optional(),
    /**
     * The transport the join arrived on (`ws` for agent processes, `socket.io` for browsers). Set by the
     * orchestrator's connection edge from the socket itself; whatever a client sends here is overwritten.
     */
    transport: z.enum(['ws', 'socket.io', 'memory']).optional(),
  }),
});
/** A seat's move for the requested turn. */
export const TurnAct = frame('turn.act', { turn: z.number().int().nonnegative(), action: Action, meta: TurnMeta });
/** The seat's policy failed to produce a move (LLM error, unparsable output): recorded as an error. */
export const TurnFail = frame('turn.fail', { turn: z.number().int().nonnegative(), error: ReportedFailure, meta: TurnMeta });
/** The script writer's whole dialogue (500 turns: 25 times the default turn limit, a bound on one frame's work). */
export const ScriptSubmit = frame('script.submit', { turns: z.array(ScriptTurn).max(500), meta: TurnMeta });
/** The script writer could not produce a dialogue. */
export const ScriptFail = frame('script.fail', { error: ReportedFailure, meta: TurnMeta });
/** Heartbeat reply. */
export const Pong = frame('pong', { nonce: z.string().max(64) });

export const AgentFrame = z.discriminatedUnion('type', [SeatJoin, TurnAct, TurnFail, ScriptSubmit, ScriptFail, Pong]);
export type AgentFrame = z.infer<typeof AgentFrame>;

// ───────────── orchestrator → agent ─────────────

/** Sent once after a successful join: everything this seat may know at the start. */
export const SeatWelcome = frame('seat.welcome', {
  episodeId: z.string(),
  seat: z.string(),
  mode: Mode,
  scenario: PublicScenario,
  self: SelfView,
  partners: z.array(PartnerView),
  limits: Limits,
  /** How to render this seat's prompt (absent: `parley`, for agents older than the protocol setting). */
  protocol: ProtocolView.optional(),
  /**
   * The seat's resume secret: the only way back into the seat after a drop (the join token is spent).
   * Bound to this seat, rotated on every rejoin (a replayed welcome carries the new one). Set by the
   * seat's link when it sends the welcome, never by `observe()`.
   */
  resume: z.string().max(128).optional(),
});
/**
 * A partner's private state (mindreaders mode, a field the scenario shares, or fields a fork reveals at
 * its fork turn: `parley fork --reveal`). Always ledgered.
 */
export const PeerState = frame('peer.state', {
  reason: z.enum(['mindreaders', 'shared_field', 'fork_reveal']),
  state: PeerPrivateState,
});
/** It is this seat's turn. A reply must name the same `turn`. */
export const TurnRequest = frame('turn.request', {
  turn: z.number().int().nonnegative(),
  actions: z.array(ActionType).min(1),
  /** Milliseconds the seat has to answer. */
  deadlineMs: z.number().int().positive(),
  /** A hidden-role game: the phase, what to do and to whom it goes (absent outside games). */
  game: GameStep.optional(),
});
/** A public move, sent to every seat (the actor included) in turn order. */
export const TurnEvent = frame('turn.event', {
  turn: z.number().int().nonnegative(),
  seat: z.string(),
  action: Action,
  /** The seats that received this move when not everyone did (a team channel, a private move); absent: everyone. */
  to: z.array(z.string().max(64)).max(12).optional(),
});
/**
 * A game's moderator speaking (issue 39): a phase opens, someone is out, a ballot is counted, or, to one
 * seat only, what its inspection found. `to` lists the audience when not everyone; `n` numbers the
 * episode's notices (a resent notice replaces the one with its number); `alive` the seats still in play.
 */
export const GameNotice = frame('game.notice', {
  n: z.number().int().nonnegative(),
  /** How many moves came before it (its place among the turns). */
  at: z.number().int().nonnegative(),
  round: z.number().int().nonnegative(),
  phase: z.string().max(200),
  text: z.string().max(2000),
  alive: z.array(z.string().max(64)).max(12),
  to: z.array(z.string().max(64)).max(12).optional(),
  fact: GameFact,
});
/** Script mode: write the whole dialogue. */
export const ScriptRequest = frame('script.request', {
  background: ScriptBackground,
  limits: Limits,
  /** The episode the script is for (keys the writer's LLM cassette, so replays find the right one). */
  episodeId: z.string().optional(),
  /** How to render the writer's prompt and in which format to answer (absent: `parley`). */
  protocol: ProtocolView.optional(),
});
/**
 * The episode is over; the connection will be closed by the orchestrator. `score`: this seat's own result
 * (the task's verdict, and the judge's scores under `parley serve --judge`), absent when there is none.
 */
export const EpisodeEnd = frame('episode.end', { reason: z.string(), score: SeatEndScore.optional() });
/** A refused frame or a failure the seat should know about. `re` is the offending frame's id. */
/**
 * `code` is reported, not own (protocol/code-schema.ts): the agent decoding this frame may face an
 * orchestrator of a newer version whose codes it does not know, and must still see the refusal.
 */
export const ErrorFrame = frame('error', { code: ReportedCodeField, message: z.string().max(2000), re: z.string().optional() });
/** Heartbeat probe; the agent answers `pong` with the same nonce. */
export const Ping = frame('ping', { nonce: z.string().max(64) });

export const OrchestratorFrame = z.discriminatedUnion('type', [
  SeatWelcome,
  PeerState,
  TurnRequest,
  TurnEvent,
  GameNotice,
  ScriptRequest,
  EpisodeEnd,
  ErrorFrame,
  Ping,
]);
export type OrchestratorFrame = z.infer<typeof OrchestratorFrame>;

export type SeatJoin = z.infer<typeof SeatJoin>;
export type TurnAct = z.infer<typeof TurnAct>;
export type TurnFail = z.infer<typeof TurnFail>;
export type ScriptSubmit = z.infer<typeof ScriptSubmit>;
export type ScriptFail = z.infer<typeof ScriptFail>;
export type Pong = z.infer<typeof Pong>;
export type SeatWelcome = z.infer<typeof SeatWelcome>;
export type PeerState = z.infer<typeof PeerState>;
export type TurnRequest = z.infer<typeof TurnRequest>;
export type TurnEvent = z.infer<typeof TurnEvent>;
export type GameNotice = z.infer<typeof GameNotice>;
export type ScriptRequest = z.infer<typeof ScriptRequest>;
export type EpisodeEnd = z.infer<typeof EpisodeEnd>;
export type ErrorFrame = z.infer<typeof ErrorFrame>;
export type Ping = z.infer<typeof Ping>;

/** A frame body without its envelope, for senders: the envelope is added by `stamp()`. */
export type Body<F> = F extends unknown ? Omit<F, 'v' | 'id'> : never;
export type AgentFrameBody = Body<AgentFrame>;
export type OrchestratorFrameBody = Body<OrchestratorFrame>;
