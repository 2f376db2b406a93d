import { LlmErrorCode } from '../protocol/codes.js';

/** The LLM layer's codes live in the one registry (protocol/codes.ts); re-exported for its callers. */
export { LlmErrorCode };

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
