import { LlmError, LlmErrorCode } from './errors.js';

/** Backoff settings for `withRetries`. */
export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
  maxRetryAfterMs: number;
}

/** Injected for tests: the clock's sleep and the jitter source. */
export interface RetryDeps {
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Sleeps `ms`, waking early with an `llm/aborted` error if `signal` fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error raised when the caller gives up (turn deadline, shutdown). */
export function abortError(signal: AbortSignal): LlmError {
  return new LlmError(LlmErrorCode.Aborted, 'LLM call aborted by the caller', { cause: signal.reason });
}

/**
 * `Retry-After` as milliseconds: delta-seconds (`"1"`, `"1.5"`) or an HTTP date. Also reads
 * `retry-after-ms`, which OpenAI-style servers send. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The project's exponential backoff: `base·2^attempt`, capped at `max` (attempt 0 waits `base`). Used as
 * is by the seat client's reconnects, and as the ceiling of the jittered LLM retry delay below.
 */
export function backoffCeiling(attempt: number, policy: { baseMs: number; maxMs: number }): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
}

/** Exponential backoff with full jitter: uniform in [0, backoffCeiling], at least 1 ms. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.max(1, Math.round(random() * backoffCeiling(attempt, policy)));
}

/**
 * Runs `attempt` until it succeeds, a non-retryable error occurs, or `maxRetries` retries are spent.
 * Waits the server's `Retry-After` when it gave one (plus a little jitter so that seats do not return
 * in lockstep), else exponential backoff. Returns the value and the retries spent; a final error
 * carries its retry count in `err.retries`.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  deps: RetryDeps = {},
): Promise<{ value: T; retries: number }> {
  const sleep = deps.sleep ?? abortableSleep;
  const random = deps.random ?? Math.random;
  for (let n = 0; ; n++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return { value: await attempt(n), retries: n };
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      err.retries = n;
      if (!err.retryable || n >= policy.maxRetries || signal?.aborted) throw err;
      let wait: number;
      if (err.retryAfterMs !== undefined) {
        if (err.retryAfterMs > policy.maxRetryAfterMs) throw err;
        wait = err.retryAfterMs + Math.round(random() * Math.min(250, policy.baseMs));
      } else {
        wait = backoffDelay(n, policy, random);
      }
      await sleep(wait, signal);
    }
  }
}
