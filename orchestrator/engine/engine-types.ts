import { turnProvenance, type EpisodeError, type EpisodeRecord, type ErrorCode, type FailureInfo, type GameRecord, type OrchestratorFrameBody, type Termination, type TurnMeta, type TurnRecord } from '../../protocol/index.js';
import type { Clock } from '../clock.js';
import type { Inbox } from '../inbox.js';
import type { SeatLifecycle } from '../seat-lifecycle.js';
import type { World } from '../world.js';
import type { ScriptedPrefix } from './scripted-prefix.js';

/** What the engine needs of a seat: send to it, refuse its frames. `SeatLink` is one. */
export interface SeatPort {
  send(body: OrchestratorFrameBody): unknown;
  reject(code: ErrorCode, message: string, re?: string): void;
  /** Optional: batch the frames sent until `flush` into one write to the seat. */
  hold?(): void;
  flush?(): void;
}

/**
 * Optional instrumentation (benchmarks, tests); absent in normal runs. Called synchronously from the
 * turn loop, so a hook must be cheap.
 */
export interface EngineHooks {
  /**
   * Orchestrator time of one turn boundary, in ns (`process.hrtime`): the seat's `turn.act` reaching its
   * connection (before decoding) → the next seat's `turn.request` written (event broadcast, ledgers and
   * termination check included). Not called for the last turn (no next request).
   */
  turnOverhead?(ns: number): void;
  /** Every seat of an episode joined and its engine starts (the benchmark's run start → first episode). */
  episodeStarted?(episodeId: string): void;
  /** A move was accepted and sent to every seat. */
  moveAccepted?(episodeId: string, turn: number, seat: string): void;
  /** A live turn was recorded, move or failure (the watch feed shows it and its cost as it happens). */
  turnRecorded?(episodeId: string, record: TurnRecord): void;
}

export interface EngineContext {
  world: World;
  /** Live seats by id: the scenario's seats, or the script writer alone in script mode. */
  ports: ReadonlyMap<string, SeatPort>;
  inbox: Inbox;
  clock: Clock;
  /**
   * Each live seat's lifecycle: the one owner of whether a dropped seat is still within its reconnect
   * grace or lost (the engine asks it, never keeps its own copy).
   */
  lifecycles: ReadonlyMap<string, SeatLifecycle>;
  hooks?: EngineHooks;
  /** A fork: the parent's first turns, replayed without asking any seat, before the live turns. */
  prefix?: ScriptedPrefix;
}

/** An explicit failure during an episode (DESIGN invariant 5): the record schema's shape. */
export type { EpisodeError };

/** Provenance a seat reported with its moves (the latest seen): the seat-level part of `TurnMeta`. */
export type SeatProvenance = Partial<Pick<TurnMeta, 'policy' | 'provider' | 'model' | 'params'>>;

/** What the engine produces; the episode runner adds seats, outcome and timing to make the record. */
export interface EngineResult {
  turns: TurnRecord[];
  termination: Termination;
  errors: EpisodeError[];
  status: EpisodeRecord['status'];
  seatProvenance: Record<string, SeatProvenance>;
  /** Script mode: the writer's provenance and cost. */
  scriptMeta?: TurnMeta;
  /** Script mode, `--on-unparsable none`: the writer's unreadable-script failure that became an empty dialogue. */
  scriptUnparsable?: FailureInfo;
  /** Script mode, `--on-provider-error none`: the writer's failed LLM call that became an empty dialogue. */
  scriptProviderError?: FailureInfo;
  /** Clock time the engine started (turn `atMs` are relative to it). */
  startedAt: number;
  /** A hidden-role game: the roles as dealt, who went out, the ballots and the winner. */
  game?: GameRecord;
}

/** Copies a move's provenance onto its turn record (only the fields present; which ones: protocol/record.ts). */
export function withMeta(record: TurnRecord, meta: TurnMeta | undefined): TurnRecord {
  return meta ? Object.assign(record, turnProvenance(meta)) : record;
}

export function provenanceOf(meta: TurnMeta): SeatProvenance {
  const p: SeatProvenance = { policy: meta.policy };
  if (meta.provider !== undefined) p.provider = meta.provider;
  if (meta.model !== undefined) p.model = meta.model;
  if (meta.params !== undefined) p.params = meta.params;
  return p;
}
