/**
 * Error codes carried by `error` frames and recorded on turns/episodes.
 * Namespaced `area/reason` so logs and tests can match a family with a prefix.
 */
export const ErrorCode = {
  BadFrame: 'protocol/bad_frame',
  FrameTooLarge: 'protocol/frame_too_large',
  VersionMismatch: 'protocol/version_mismatch',
  NotJoined: 'seat/not_joined',
  BadToken: 'seat/bad_token',
  SeatTaken: 'seat/taken',
  AlreadyJoined: 'seat/already_joined',
  NotYourTurn: 'turn/not_your_turn',
  StaleTurn: 'turn/stale',
  ActionNotAllowed: 'turn/action_not_allowed',
  DeadlineMissed: 'turn/deadline_missed',
  ScriptInvalid: 'script/invalid',
  UnexpectedFrame: 'protocol/unexpected_frame',
  PolicyFailed: 'policy/failed',
  Internal: 'internal/error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** WebSocket close codes (4000–4999 are application-defined per RFC 6455). */
export const CloseCode = {
  /** Normal end: the episode ended and the seat is released. */
  EpisodeEnded: 4000,
  /** The client kept sending bad frames. */
  ProtocolAbuse: 4001,
  /** The first frame was not a valid `seat.join`, or the token was refused. */
  JoinRefused: 4002,
  /** No join frame arrived within the join timeout. */
  JoinTimeout: 4003,
  /** Heartbeat pongs stopped arriving. */
  HeartbeatTimeout: 4004,
  /** A frame exceeded MAX_FRAME_BYTES. */
  FrameTooLarge: 4005,
  /** The orchestrator is shutting down. */
  ServerShutdown: 4006,
  /** Another connection took over this seat (reconnect with the same token). */
  Replaced: 4007,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];
