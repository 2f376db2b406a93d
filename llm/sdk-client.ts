import type { Usage } from '../protocol/index.js';
import { attemptSignal } from './attempt-signal.js';
import { LlmError, LlmErrorCode } from './errors.js';
import { limiterFor, type RequestLimiter } from './limiter.js';
import { accountKey, estimateTokens, sharedRateLimitFor, type SharedRateLimit } from './shared-limit.js';
import type { ClientOptions } from './options.js';
import { abortError, withRetries, type RetryDeps } from './retry.js';
import type { ChatRequest, ChatResponse, LlmClient, StructuredFallback } from './types.js';

/** What one provider attempt yields before timing and retries are added. */
export interface AttemptResult {
  content: string;
  usage: Usage;
  model: string;
  finishReason?: string;
  /** Set by the structured-output ladder when it left the configured rung. */
  structured?: StructuredFallback;
}

/**
 * One HTTP attempt through a provider SDK. `signal` fires on the caller's abort or the attempt timeout;
 * the implementation maps SDK errors to `LlmError` (see `classifyAbort` for the abort case).
 */
export type Attempt = (req: ChatRequest, signal: AbortSignal) => Promise<AttemptResult>;

/**
 * The shared shell of the SDK clients: per-provider limiter, per-attempt timeout, our own retries
 * (the SDKs' are switched off so that every retry is counted), latency measurement.
 */
export class SdkClient implements LlmClient {
  /** LlmClient.preload: set by a client whose requests need only their modules loaded (openai-client.ts). */
  preload?: () => Promise<void>;
  private readonly limiter: RequestLimiter;
  /** The account-wide gate through Redis (`parley worker`), when the policy sets `rpm` or `tpm`. */
  private readonly shared: Promise<SharedRateLimit> | null;

  constructor(
    readonly provider: string,
    readonly model: string,
    private readonly attempt: Attempt,
    private readonly options: ClientOptions,
    endpoint: string,
    private readonly deps: RetryDeps = {},
    /** Loads what the attempts need (the SDK, imported lazily) before any attempt's timeout starts. */
    private readonly prepare?: () => Promise<unknown>,
    /** The account's API key: shared limits are per provider, endpoint and key (only a hash leaves). */
    apiKey = '',
  ) {
    this.shared = sharedRateLimitFor(accountKey(provider, endpoint, apiKey), { rpm: options.rpm, tpm: options.tpm });
    // With the shared gate, requests per minute are counted there (across processes), not twice.
    this.limiter = limiterFor(`${provider} ${endpoint}`, { maxConcurrent: options.maxConcurrent, rpm: this.shared ? 0 : options.rpm });
  }

  async chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const started = performance.now();
    await this.prepare?.();
    const { value, retries } = await withRetries(
      () => this.limiter.run(() => (this.shared ? this.gated(this.shared, req, signal) : this.once(req, signal)), signal),
      {
        maxRetries: this.options.maxRetries,
        baseMs: this.options.retryBaseMs,
        maxMs: this.options.retryMaxMs,
        maxRetryAfterMs: this.options.maxRetryAfterMs,
      },
      signal,
      this.deps,
    );
    const response: ChatResponse = {
      content: value.content,
      usage: value.usage,
      model: value.model,
      latencyMs: Math.round(performance.now() - started),
      retries,
    };
    if (value.finishReason !== undefined) response.finishReason = value.finishReason;
    if (value.structured !== undefined) response.structured = value.structured;
    return response;
  }

  /** One attempt through the shared gate: admitted first, usage settled after, a 429 pauses everyone. */
  private async gated(shared: Promise<SharedRateLimit>, req: ChatRequest, signal?: AbortSignal): Promise<AttemptResult> {
    const gate = await shared;
    const estimate = estimateTokens(req.messages, req.maxTokens);
    const admitted = await gate.admit(estimate, signal);
    try {
      const result = await this.once(req, signal);
      await gate.settle(estimate, result.usage.prompt + result.usage.completion);
      return result;
    } catch (err) {
      if (err instanceof LlmError && err.code === LlmErrorCode.RateLimited) await gate.pause(err.retryAfterMs ?? this.options.retryBaseMs);
      throw err;
    } finally {
      await admitted.done();
    }
  }

  private async once(req: ChatRequest, signal?: AbortSignal): Promise<AttemptResult> {
    if (signal?.aborted) throw abortError(signal);
    const attempt = attemptSignal(this.options.timeoutMs, signal);
    try {
      return await this.attempt(req, attempt.signal);
    } catch (err) {
      if (signal?.aborted) throw abortError(signal);
      if (attempt.timedOut()) {
        throw new LlmError(LlmErrorCode.Timeout, `${this.provider}:${this.model}: no reply within ${this.options.timeoutMs} ms`, { cause: err });
      }
      throw err;
    } finally {
      attempt.dispose();
    }
  }
}

/** Usage from an OpenAI-style `usage` object (both SDKs pass the raw `prompt_tokens_details` through). */
export function usageFrom(raw: unknown): Usage {
  const u = (raw ?? {}) as Record<string, unknown>;
  const num = (...values: unknown[]) => {
    for (const v of values) if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return Math.floor(v);
    return 0;
  };
  const details = (u.prompt_tokens_details ?? u.promptTokensDetails ?? {}) as Record<string, unknown>;
  return {
    prompt: num(u.prompt_tokens, u.promptTokens),
    completion: num(u.completion_tokens, u.completionTokens),
    cached: num(details?.cached_tokens, details?.cachedTokens, u.num_cached_tokens),
  };
}

/** Builds an `LlmError` for an HTTP status answer, reading `Retry-After` on 429 and 503. */
export function httpError(
  label: string,
  status: number,
  message: string,
  retryAfterMs: number | undefined,
  cause: unknown,
): LlmError {
  const code = status === 429 ? LlmErrorCode.RateLimited : LlmErrorCode.HttpError;
  const opts: { cause: unknown; status: number; retryAfterMs?: number } = { cause, status };
  if (retryAfterMs !== undefined && (status === 429 || status >= 500)) opts.retryAfterMs = retryAfterMs;
  return new LlmError(code, `${label}: HTTP ${status}: ${message.slice(0, 500)}`, opts);
}
