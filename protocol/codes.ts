/**
 * The one code table: every error code that any part of Parley sends in an `error` frame or records on a
 * turn, an episode or a seat outcome, and every WebSocket close code. Namespaced `area/reason`, so logs
 * and tests can match a family with a prefix; code that *decides* something (e.g. "was my join refused?")
 * uses the sets below, never a prefix.
 */
export const ErrorCode = {
  // ── frames (decode, size, budget)
  BadFrame: 'protocol/bad_frame',
  FrameTooLarge: 'protocol/frame_too_large',
  VersionMismatch: 'protocol/version_mismatch',
  UnexpectedFrame: 'protocol/unexpected_frame',
  /** The connection sent more bytes than its budget allows. */
  ByteBudget: 'protocol/byte_budget',
  // ── joining and holding a seat
  NotJoined: 'seat/not_joined',
  BadToken: 'seat/bad_token',
  SeatTaken: 'seat/taken',
  AlreadyJoined: 'seat/already_joined',
  /** The join token was already used: a reconnect must present the seat's resume secret instead. */
  TokenSpent: 'seat/token_spent',
  /** A reconnect presented a wrong or outdated resume secret. */
  BadResume: 'seat/bad_resume',
  /** The seat is over for good (ended, lost, or closed for abuse); nobody may take it again. */
  SeatClosed: 'seat/closed',
  /** Too many refused joins from this address: wait for the back-off. */
  RateLimited: 'seat/rate_limited',
  /** The seat's connection dropped and was not resumed (recorded on the episode). */
  Disconnected: 'seat/disconnected',
  /** The seat was closed for repeated refused frames (4001, recorded on the episode). */
  Abuse: 'seat/abuse',
  /** The pid a seat reported differs from the process the supervisor forked. */
  PidMismatch: 'seat/pid_mismatch',
  // ── turns
  /** A move arrived before the episode started: nothing can be acted on yet. */
  NotStarted: 'turn/not_started',
  NotYourTurn: 'turn/not_your_turn',
  StaleTurn: 'turn/stale',
  ActionNotAllowed: 'turn/action_not_allowed',
  DeadlineMissed: 'turn/deadline_missed',
  ScriptInvalid: 'script/invalid',
  // ── policies (agent-node)
  PolicyFailed: 'policy/failed',
  PolicyUnparsable: 'policy/unparsable',
  NoScriptWriter: 'policy/cannot_write_script',
  InvalidOutput: 'policy/invalid_output',
  NotWelcomed: 'seat/no_welcome',
  UnknownPolicy: 'policy/unknown_spec',
  PolicyUnavailable: 'policy/unavailable',
  // ── how an agent's seat ended, as the agent sees it
  JoinRefused: 'seat/join_refused',
  ConnectionLost: 'connection/lost',
  ClosedByServer: 'connection/closed_by_server',
  ClosedLocally: 'seat/closed_locally',
  // ── queue jobs (a worker refuses a job that does not match the grammar the coordinator writes)
  BadJob: 'queue/bad_job',
  // ── bugs
  Internal: 'internal/error',
  JudgeOnlyLeak: 'internal/judge_only_leak',
  /** The judge's reply to the paper's deal question (appendix H.2) gives no yes/no answer, in tags or otherwise. */
  JudgeNoAnswer: 'judge/no_answer',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Error codes an orchestrator sends when it refuses a `seat.join` for good (the agent stops: retrying
 * cannot help). Not `RateLimited`: that one says "wait, then try again".
 */
export const JOIN_REFUSAL_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  ErrorCode.NotJoined,
  ErrorCode.BadToken,
  ErrorCode.SeatTaken,
  ErrorCode.AlreadyJoined,
  ErrorCode.TokenSpent,
  ErrorCode.BadResume,
  ErrorCode.SeatClosed,
  ErrorCode.VersionMismatch,
  ErrorCode.Internal,
]);

/** WebSocket close codes (4000–4999 are application-defined per RFC 6455). */
export const CloseCode = {
  /** Normal end: the episode ended and the seat is released. */
  EpisodeEnded: 4000,
  /** The client kept sending refused frames: the seat is over for good. */
  ProtocolAbuse: 4001,
  /** The first frame was not a valid `seat.join`, or the token/secret was refused. */
  JoinRefused: 4002,
  /** No join frame arrived within the join timeout. */
  JoinTimeout: 4003,
  /** Heartbeat pongs stopped arriving. */
  HeartbeatTimeout: 4004,
  /** A frame exceeded MAX_FRAME_BYTES. */
  FrameTooLarge: 4005,
  /** The orchestrator is shutting down. */
  ServerShutdown: 4006,
  /** Another connection took over this seat (a resume, or the supervisor replacing a dead process). */
  Replaced: 4007,
  /** The connection exceeded its byte budget: the seat is over for good. */
  ByteBudget: 4008,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** Closes after which the seat is over for good: the agent must not reconnect, the orchestrator will not take it back. */
export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set<CloseCode>([
  CloseCode.ProtocolAbuse,
  CloseCode.ByteBudget,
  CloseCode.FrameTooLarge,
  CloseCode.ServerShutdown,
  CloseCode.Replaced,
]);

/** Closes the orchestrator makes that end the seat for good (the episode records why): abuse and byte budget. */
export const SEAT_ENDING_CLOSE_CODES: ReadonlySet<number> = new Set<CloseCode>([CloseCode.ProtocolAbuse, CloseCode.ByteBudget]);

/** Closes that mean the join itself was refused. */
export const REFUSAL_CLOSE_CODES: ReadonlySet<number> = new Set<CloseCode>([CloseCode.JoinRefused, CloseCode.JoinTimeout]);

/**
 * The grammar of every error code of every table (`area/reason`, lower case, digits and `_`): what a code
 * reported by another process must match before it is recorded (protocol/meta.ts `ReportedFailure`).
 */
export const CODE_PATTERN = /^[a-z][a-z0-9_]*(?:\/[a-z0-9_]+)+$/;

/** Every code in the table (tests check that records carry only these). */
export const ALL_ERROR_CODES: ReadonlySet<string> = new Set<string>(Object.values(ErrorCode));
