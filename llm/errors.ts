/**
 * Error codes of the LLM layer. Namespaced `llm/…` so records and tests can match the family by prefix.
 * They surface on turns as `FailureInfo.code` when a call finally fails (DESIGN invariant 5).
 */
export const LlmErrorCode = {
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
} as const;
export type LlmErrorCode = (typeof LlmErrorCode)[keyof typeof LlmErrorCode];

/** The one error class of the LLM layer: a `code` to branch on, the provider's error as `cause`. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly code: LlmErrorCode;
  /** HTTP status when the server answered. */
  readonly status?: number;
  /** Server-requested wait (`Retry-After`), in milliseconds, when present. */
  readonly retryAfterMs?: number;
  /** Retries already spent when this error was finally raised. */
  retries = 0;

  constructor(
    code: LlmErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** Whether another attempt may succeed: 429, 5xx, timeouts and dropped connections. */
  get retryable(): boolean {
    return (
      this.code === LlmErrorCode.RateLimited ||
      this.code === LlmErrorCode.Timeout ||
      this.code === LlmErrorCode.Connection ||
      (this.code === LlmErrorCode.HttpError && this.status !== undefined && this.status >= 500)
    );
  }
}

/** Narrowing helper for `catch (err)` blocks. */
export function isLlmError(err: unknown): err is LlmError {
  return err instanceof LlmError;
}
