/**
 * The one code registry: every error code that any part of Parley sends in an `error` frame or records on a
 * turn, an episode, a seat outcome, run.json or a verdict, and every WebSocket close code. One table per
 * area (wire and seat codes, llm, scenarios, run, bot, judge), all here: `protocol/` is below every
 * folder, so each layer names its codes from this file and the record schemas type them by it
 * (protocol/code-schema.ts). Namespaced `area/reason`, so logs
 * and tests can match a family with a prefix; code that *decides* something (e.g. "was my join refused?")
 * uses the sets below, never a prefix.
 */
const TABLES = {
  /** Wire and seat codes: frames, joining and holding a seat, turns, policies, how a seat ended, queue jobs, bugs. */
  ErrorCode: {
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
    /** A private move's `to` is wrong for the episode (not a seat of it, the speaker, twice, empty, or not a private type). */
    BadRecipients: 'turn/bad_recipients',
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
  },
  /**
   * Error codes of the LLM layer (llm/, re-exported by llm/errors.ts). They surface on turns as
   * `FailureInfo.code` when a call finally fails (DESIGN invariant 5).
   */
  LlmErrorCode: {
    /** 429 after all retries. */
    RateLimited: 'llm/rate_limited',
    /** Any other non-2xx status (after retries for 5xx). */
    HttpError: 'llm/http_error',
    /** The request did not complete within the per-attempt timeout, after retries. */
    Timeout: 'llm/timeout',
    /** The server could not be reached (refused, reset, DNS). */
    Connection: 'llm/connection',
    /** The server answered 2xx but the body was not a usable chat completion. */
    BadResponse: 'llm/bad_response',
    /** The caller's signal aborted the call (turn deadline, shutdown). */
    Aborted: 'llm/aborted',
    /** No API key in the environment for the chosen provider. */
    NoKey: 'llm/no_key',
    /** The policy spec does not name a known provider and model. */
    BadSpec: 'llm/bad_spec',
    /** Replay: no cassette was recorded for this episode and seat. */
    ReplayMissing: 'llm/replay_missing',
    /** Replay: the run asked for more calls than were recorded. */
    ReplayExhausted: 'llm/replay_exhausted',
    /** Replay: the request differs from the recorded one at this position. */
    ReplayMismatch: 'llm/replay_mismatch',
  },
  /** Error codes of the scenarios library (scenarios/, re-exported by scenarios/errors.ts). */
  ScenarioErrorCode: {
    BadJson: 'scenarios/bad_json',
    MissingField: 'scenarios/missing_field',
    InvalidField: 'scenarios/invalid_field',
    UnknownRelationship: 'scenarios/unknown_relationship',
    UnknownReference: 'scenarios/unknown_reference',
    DuplicateId: 'scenarios/duplicate_id',
    Io: 'scenarios/io',
    /** A source file could not be downloaded (server down, HTTP error). */
    Fetch: 'scenarios/fetch',
    /** A downloaded data set does not hold the published number of records. */
    Counts: 'scenarios/counts',
  },
  /**
   * Codes of run-level failures (the run cannot start or go on; re-exported by orchestrator/run/run-error.ts)
   * and of reading a run directory (run-dir/, evaluator/).
   */
  RunErrorCode: {
    NoScenarios: 'run/no_scenarios',
    ScenarioLoad: 'run/scenario_load',
    BadScenario: 'run/bad_scenario',
    /** Settings that do not go together (e.g. a paper-only flag under --protocol parley). */
    BadConfig: 'run/bad_config',
    Io: 'run/io',
    Agents: 'run/agents',
    /** Another process holds the run directory's lock. */
    Busy: 'run/busy',
    /** Every episode is recorded but the run's summary (stats in run.json) could not be computed or written. */
    Summary: 'run/summary_failed',
    // ── reading a run directory
    /** A required file of the run directory is absent (not a run directory?). */
    MissingFile: 'run/missing_file',
    /** A line (or run.json) is not JSON. */
    BadJson: 'run/bad_json',
    /** A line of a JSONL file is JSON but not a valid record. */
    BadRecord: 'run/bad_record',
    /** A record's `evaluation` (what `parley eval` stored) does not match its schema: named by file and line, never skipped. */
    BadEvaluation: 'run/bad_evaluation',
    /** run.json is JSON but does not match its schema. */
    BadRunJson: 'run/bad_run_json',
    /** Recorded episodes use scenarios that scenarios.jsonl does not hold (restore: `run --extend --repair-scenarios`). */
    MissingScenarios: 'run/missing_scenarios',
  },
  /** Failure codes of the built-in bots (agent-node/policies/bot/), recorded on the bot's turn. */
  BotErrorCode: {
    WrongKind: 'bot/wrong_kind',
    NoTask: 'bot/no_task',
    NoSharedFriend: 'bot/no_shared_friend',
  },
  /** Why an evaluation failed after its retry (evaluator/: the judge and the naturalness comparison). */
  JudgeErrorCode: {
    BadJson: 'judge/bad_json',
    InvalidScores: 'judge/invalid_scores',
    ProviderError: 'judge/provider_error',
    MissingScenario: 'judge/missing_scenario',
    NoTranscript: 'judge/no_transcript',
    /** A finished batch whose output could not be read (missing, refused, not the provider's): its requests count as failed. */
    BatchOutput: 'judge/batch_output',
    /** `eval --attribute`: the attribution reply was not JSON of the asked shape, after its retry. */
    AttributionBadJson: 'judge/attribution_bad_json',
    /** `eval --attribute`: the reply weighed other moves than the seat's, missed one, or left the 0–3 range. */
    AttributionInvalid: 'judge/attribution_invalid',
    /** `eval --attribute`: every move weighed 0 while the score is not 0, so no split sums to it. */
    AttributionZeroWeights: 'judge/attribution_zero_weights',
    /** `eval --attribute`: the seat has no goal score to split (its judgement failed, or the rubric has no goal). */
    AttributionNoScore: 'judge/attribution_no_score',
    /** `eval --attribute`: the seat made no move to split its score over. */
    AttributionNoMoves: 'judge/attribution_no_moves',
  },
} as const;

/** The codes of one table: the union of its values. */
type CodeIn<T extends keyof typeof TABLES> = (typeof TABLES)[T][keyof (typeof TABLES)[T]];

export const { ErrorCode, LlmErrorCode, ScenarioErrorCode, RunErrorCode, BotErrorCode, JudgeErrorCode } = TABLES;
export type ErrorCode = CodeIn<'ErrorCode'>;
export type LlmErrorCode = CodeIn<'LlmErrorCode'>;
export type ScenarioErrorCode = CodeIn<'ScenarioErrorCode'>;
export type RunErrorCode = CodeIn<'RunErrorCode'>;
export type BotErrorCode = CodeIn<'BotErrorCode'>;
export type JudgeErrorCode = CodeIn<'JudgeErrorCode'>;

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
  /**
   * Too many connections were waiting to join (ws-endpoint.ts AGENT_PENDING_LIMITS): this one, the oldest,
   * was closed to make room. Not a failure of the seat: the client joins again after a backoff.
   */
  Busy: 4009,
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

/** Any code Parley itself writes: a code of any table above. */
export type OwnCode = { [T in keyof typeof TABLES]: CodeIn<T> }[keyof typeof TABLES];

/**
 * Every code of every table, in one list (record schemas build their enum from it: protocol/code-schema.ts).
 * A code is never taken off once released: records already on disk carry it, and must keep validating.
 */
export const OWN_CODES: readonly [OwnCode, ...OwnCode[]] = Object.values(TABLES).flatMap((table) => Object.values(table)) as [OwnCode, ...OwnCode[]];

/** Every code in the registry (tests check that records carry only these). */
export const ALL_ERROR_CODES: ReadonlySet<string> = new Set<string>(OWN_CODES);
