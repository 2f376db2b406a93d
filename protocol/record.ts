import * as z from 'zod';
import { Action } from './action.js';
import { OwnCodeField } from './code-schema.js';
import { Evaluation } from './evaluation.js';
import { FailureInfo, TurnMeta } from './meta.js';
import { GameRecord } from './game.js';
import { Mode } from './modes.js';

/**
 * What a record keeps of a move's provenance (`TurnMeta`, sent with every move): latency, provider,
 * model, usage, repairs, retries. Derived from `TurnMeta`, so a field added there is added here; the
 * policy and its params are recorded once per seat, not per turn. Absent latency: no move arrived.
 */
export const TurnProvenance = z.object({
  latencyMs: TurnMeta.shape.latencyMs.optional(),
  ...TurnMeta.pick({ provider: true, model: true, usage: true, repairs: true, retries: true, fallbacks: true, reformatModel: true }).shape,
});
export type TurnProvenance = z.infer<typeof TurnProvenance>;

const PROVENANCE_FIELDS = Object.keys(TurnProvenance.shape) as Array<keyof TurnProvenance>;

/** The provenance fields of a move's meta that are set (the one place a `TurnMeta` becomes record fields). */
export function turnProvenance(meta: TurnMeta): TurnProvenance {
  const out: Record<string, unknown> = {};
  for (const key of PROVENANCE_FIELDS) if (meta[key] !== undefined) out[key] = meta[key];
  return out as TurnProvenance;
}

/** One turn of an episode as recorded: the same shape in every mode, so the evaluator treats all alike. */
export const TurnRecord = z.object({
  turn: z.number().int().nonnegative(),
  seat: z.string(),
  /**
   * The move; null only when `error` is set. A failure is never turned into a `none` silently: the one
   * exception, `--on-unparsable none`, keeps the failure in `unparsable` beside the `none`.
   */
  action: Action.nullable(),
  error: FailureInfo.optional(),
  /**
   * `--on-unparsable none` (SOTOPIA's behaviour, the `paper` default): the seat's reply was unreadable
   * after one reformat request, so the orchestrator recorded a `none` and went on. The policy's failure
   * (code and reason) is kept here, and run.json counts these turns (`stats.unparsableTurns`).
   */
  unparsable: FailureInfo.optional(),
  /**
   * `--on-provider-error none` (SOTOPIA's behaviour, the `paper` default): the seat's LLM call failed after
   * its retries, so the orchestrator recorded a `none` and went on. The provider's failure (its `llm/*` code
   * and message) is kept here, and run.json counts these turns (`stats.providerErrorTurns`).
   */
  providerError: FailureInfo.optional(),
  /**
   * A private move (`action.to` set): every seat that received it, the speaker and its recipients, in
   * seat order. Absent for a public move, which every seat received. Audits check ledgers against it.
   */
  to: z.array(z.string()).optional(),
  /** Milliseconds since the episode started when the move was accepted. */
  atMs: z.number().nonnegative(),
  /** A game: the phase the move was made in (simulation/games/). */
  phase: z.string().optional(),
  ...TurnProvenance.shape,
});
export type TurnRecord = z.infer<typeof TurnRecord>;

/** A seat of a recorded episode: who played it, in which process, with what. */
export const SeatRecord = z.object({
  seat: z.string(),
  character: z.string(),
  /** OS pid of the agent process that held the seat (as it reported at join; the last one after a recovery). */
  pid: z.number().int().nullable(),
  /** Every process that held the seat, in order: more than one after a crash recovery (isolation audit). */
  pids: z.array(z.number().int()).optional(),
  policy: z.string(),
  provider: z.string().optional(),
  model: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  /** Whether this seat was played by a process (false: script mode, the writer spoke for it). */
  live: z.boolean(),
  /**
   * Absent: a process the orchestrator started itself played the seat. `reported`: a remote agent did, so
   * provider, model, params and usage are its own unverified claims (range-checked, not in cost
   * estimates); `trusted`: the same, run with `--trust-remote-usage` (its usage is counted).
   */
  provenance: z.enum(['reported', 'trusted']).optional(),
  /** The client that played the seat as it named itself at join, and the transport it came over (e.g. a browser: `parley-web` over `socket.io`). */
  client: z.object({ name: z.string(), version: z.string(), transport: z.string().optional() }).optional(),
});
export type SeatRecord = z.infer<typeof SeatRecord>;

export const TerminationReason = z.enum([
  'max_turns',
  'leave',
  'idle',
  /** The task ended it: a Craigslist accept or quit, or every MutualFriends seat selected (detail says which). */
  'task_end',
  'script_end',
  'deadline',
  'disconnect',
  'policy_error',
  'script_error',
  'aborted',
]);
export type TerminationReason = z.infer<typeof TerminationReason>;

/**
 * The outcome of a task that can be won: its kind, what the moves settled, and whether that is a success
 * (the field every reader of task success looks at), always last.
 */
function taskOutcome<K extends string, S extends z.ZodRawShape>(kind: K, settled: S) {
  return z.object({ kind: z.literal(kind), ...settled, success: z.boolean() });
}

/** Task outcome computed from explicit moves. */
export const Outcome = z.discriminatedUnion('kind', [
  taskOutcome('mutual_friends', {
    /** Each seat's last `select`, or null if it never selected. */
    selections: z.record(z.string(), z.string().nullable()),
    answer: z.string(),
  }),
  taskOutcome('craigslist', {
    deal: z.boolean(),
    price: z.number().nullable(),
    /** Seat that accepted, when a deal was reached. */
    acceptedBy: z.string().nullable(),
  }),
  taskOutcome('auction', {
    /** Whether the seller accepted a bid. */
    sold: z.boolean(),
    /** The accepted bid, and the buyer who made it. */
    price: z.number().nullable(),
    winner: z.string().nullable(),
  }),
  taskOutcome('split', {
    /** Whether a proposal won a majority of the seats. */
    passed: z.boolean(),
    /** The passed proposal's shares by seat (null when none passed), and who proposed it. */
    shares: z.record(z.string(), z.number()).nullable(),
    proposer: z.string().nullable(),
  }),
  z.object({ kind: z.literal('open'), success: z.null() }),
  /** A hidden-role game: the winning side (the record's `game` has the rest); success has no meaning here. */
  z.object({ kind: z.literal('game'), winner: z.string().nullable(), success: z.null() }),
]);
export type Outcome = z.infer<typeof Outcome>;

/** A seat re-established on a fresh agent process after its process died (crash recovery). */
export const SeatRecovery = z.object({
  seat: z.string(),
  /** The process that died (null if it died before joining). */
  lostPid: z.number().int().nullable(),
  /** How the loss was detected, e.g. `agent process 4242 exited (SIGKILL)`. */
  reason: z.string(),
  /** Turns played when it happened. */
  turn: z.number().int().nonnegative(),
  /** Milliseconds since the episode started. */
  atMs: z.number().nonnegative(),
});
export type SeatRecovery = z.infer<typeof SeatRecovery>;

/**
 * Something that happened to a seat's connection, kept on the episode (not only in the serve log):
 * a drop, a rejoin, a heartbeat timeout, a refused frame or join, the seat lost for good.
 */
export const SeatEvent = z.object({
  seat: z.string(),
  kind: z.enum(['down', 'rejoined', 'heartbeat_timeout', 'refused', 'join_refused', 'lost', 'truncated']),
  /** Milliseconds since the seat was reserved. */
  atMs: z.number().nonnegative(),
  /** Own: the orchestrator logs seat events with codes of its registry (protocol/code-schema.ts). */
  code: OwnCodeField.optional(),
  /** A short note (300 characters): events are many per seat, and a client's text never needs more here. */
  detail: z.string().max(300).optional(),
});
export type SeatEvent = z.infer<typeof SeatEvent>;
/** Why and how an episode ended (the engine produces it; the record stores it as is). */
export const Termination = z.object({ reason: TerminationReason, detail: z.string().optional(), seat: z.string().optional() });
export type Termination = z.infer<typeof Termination>;

/** An explicit failure during an episode (DESIGN invariant 5), with the seat and turn it concerns. */
export const EpisodeError = FailureInfo.extend({ seat: z.string().optional(), turn: z.number().optional() });
export type EpisodeError = z.infer<typeof EpisodeError>;

/** Script mode: the process that wrote the dialogue, and the writer's provenance and cost. */
export const ScriptWriterRecord = z.object({
  pid: z.number().int().nullable(),
  pids: z.array(z.number().int()).optional(),
  policy: z.string(),
  /**
   * `--on-unparsable none`: the script was unreadable after one reformat request and, as SOTOPIA's code
   * did, the episode went on with an empty dialogue. The writer's failure is kept here (counted in
   * run.json as `stats.unparsableScripts`).
   */
  unparsable: FailureInfo.optional(),
  /**
   * `--on-provider-error none`: the writer's LLM call failed after its retries and, as SOTOPIA's code did,
   * the episode went on with an empty dialogue. The failure is kept here (`stats.providerErrorScripts`).
   */
  providerError: FailureInfo.optional(),
  ...TurnProvenance.shape,
});
export type ScriptWriterRecord = z.infer<typeof ScriptWriterRecord>;

/**
 * A forked episode's origin (`parley fork`): it replayed the first `at` turns of `parentEpisode` of run
 * `parentRun` exactly (the same actions, the same frames to every seat, no LLM call), then went live.
 * Absent on episodes played from the start; records written before forks existed stay valid.
 */
export const ForkProvenance = z.object({
  parentRun: z.string(),
  parentEpisode: z.string(),
  /** The fork turn: turns `0 … at-1` are the parent's, turn `at` is the first one played live. */
  at: z.number().int().nonnegative(),
  /** What `--reveal` delivered at turn `at`, as given (`agent2.goal:agent1`); absent when nothing was. */
  reveal: z.array(z.string()).optional(),
  /**
   * Per live seat, the 0-based line of its ledger (`ledgers/<episode>/<seat>.jsonl`) where the live part
   * begins: lines before it are the replayed prefix (welcome, partner states, the parent's moves).
   */
  liveFromLine: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type ForkProvenance = z.infer<typeof ForkProvenance>;

/** One line of `episodes.jsonl`. */
/**
 * Whether a draw counts under the `first-valid` selection rule (simulation-protocol.ts `Selection`):
 * `counted`, `superseded` by the next draw of its instance (`short`: 5 or fewer moves; `unscored`: the
 * judge could not score it), or `exhausted` (invalid, and the last draw the bound allows: the instance has
 * no counted episode). Absent: counted (runs under `all`, and runs from before the rule).
 */
export const SelectionMark = z.object({
  status: z.enum(['counted', 'superseded', 'exhausted']),
  reason: z.enum(['short', 'unscored']).optional(),
});
export type SelectionMark = z.infer<typeof SelectionMark>;

export const EpisodeRecord = z.object({
  episodeId: z.string(),
  runId: z.string(),
  scenarioId: z.string(),
  /** Character pair key (SOTOPIA combo or builtin pairing), part of the deterministic episode id. */
  pairId: z.string(),
  repeat: z.number().int().nonnegative(),
  /** Which draw of its instance this is (0, absent: the first; `first-valid` re-draws are 1, 2, …). */
  draw: z.number().int().nonnegative().optional(),
  /** Set under the `first-valid` selection rule. */
  selection: SelectionMark.optional(),
  mode: Mode,
  seats: z.array(SeatRecord),
  /** Script mode: the process that wrote the dialogue. */
  scriptWriter: ScriptWriterRecord.optional(),
  turns: z.array(TurnRecord),
  termination: Termination,
  outcome: Outcome,
  /** Explicit failures during the episode (policy errors, protocol errors from the seats, disconnects). */
  errors: z.array(EpisodeError),
  /** Seats re-established on a fresh process after a crash (absent when none). */
  recoveries: z.array(SeatRecovery).optional(),
  /** Seat connection events: drops, rejoins, heartbeat timeouts, refusals (absent when none). */
  seatEvents: z.array(SeatEvent).optional(),
  /** 'ok' when the episode ran to a normal end; 'failed' when an error ended it. */
  status: z.enum(['ok', 'failed']),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  /** A forked episode: which parent episode's first turns it replayed, and from where it was live. */
  fork: ForkProvenance.optional(),
  /** A hidden-role game: roles as dealt, who went out, the ballots and the winner (protocol/game.ts). */
  game: GameRecord.optional(),
  /** Filled by the evaluator (`parley eval`); absent until then. Validated with the record: a malformed one names its line. */
  evaluation: Evaluation.optional(),
});
export type EpisodeRecord = z.infer<typeof EpisodeRecord>;
