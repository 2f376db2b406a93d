import type {
  Action,
  FailureInfo,
  GameNotice,
  PeerPrivateState,
  ScriptRequest,
  ScriptTurn,
  SeatWelcome,
  TurnEvent,
  TurnMeta,
  TurnRequest,
} from '../protocol/index.js';

/**
 * What a seat's process knows: exactly the frames it received, nothing else. Policies build their
 * prompts and decisions from this view only.
 */
export interface SeatView {
  welcome: SeatWelcome;
  /** Partners' private states that arrived in `peer.state` frames (mindreaders mode). */
  peers: PeerPrivateState[];
  /** Public moves so far, in turn order (in a game: the moves this seat received). */
  events: TurnEvent[];
  /** A hidden-role game: the moderator's notices this seat received, in order (absent outside games). */
  notices?: GameNotice[];
}

export type MoveResult =
  | { ok: true; action: Action; meta: TurnMeta }
  | { ok: false; error: FailureInfo; meta: TurnMeta };

export type ScriptResult =
  | { ok: true; turns: ScriptTurn[]; meta: TurnMeta }
  | { ok: false; error: FailureInfo; meta: TurnMeta };

/** A way of playing a seat: a bot, an LLM, a replayed cassette, a human. */
export interface Policy {
  /** The spec it was made from, e.g. `bot:craigslist` or `openai:gpt-3.5-turbo`. */
  readonly spec: string;
  /** Choose this seat's move for `request.turn`. Must resolve (errors are results, not throws). */
  act(view: SeatView, request: TurnRequest, signal: AbortSignal): Promise<MoveResult>;
  /** Script mode: write the whole dialogue. Policies that cannot write scripts omit it. */
  writeScript?(request: ScriptRequest, signal: AbortSignal): Promise<ScriptResult>;
  /** The episode is over (`episode.end`): a person is shown why and how it ended. */
  ended?(view: SeatView | null, reason: string): void;
  /** Release resources (files, sockets) when the process is done with the seat. */
  close?(): Promise<void>;
  /** Load what the first move would otherwise load (an SDK), so a pooled process is ready before its first seat. */
  warm?(): Promise<void>;
}
