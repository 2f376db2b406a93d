import { providerOrThrow } from './providers/registry.js';
import { unknownSamplingKey } from './sampling-keys.js';

/**
 * Client settings that travel in `PolicyConfig.params` next to the sampling params, so one experiment
 * file line can tune a seat. These keys are consumed by the client and never sent to the provider.
 */
/**
 * How `ChatRequest.json` is asked for: a JSON schema, JSON mode, or `prompt` (the schema written into
 * the prompt, no `response_format`) — the rungs of the structured-output ladder, tried from the
 * configured one downwards; `off` sends no format and adds nothing (the caller's prompt asks for JSON).
 */
export type StructuredMode = 'json_schema' | 'json_object' | 'prompt' | 'off';

export interface ClientOptions {
  /** The top rung of the structured-output ladder (see structured-ladder.ts). */
  structuredOutput: StructuredMode;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and dropped connections. */
  maxRetries: number;
  /** First backoff delay; doubles each retry, with full jitter. */
  retryBaseMs: number;
  /** Backoff ceiling (a server's `Retry-After` may ask for more, up to `maxRetryAfterMs`). */
  retryMaxMs: number;
  /** Longest `Retry-After` honoured; a longer one fails the call instead of stalling the run. */
  maxRetryAfterMs: number;
  /** Per-provider, per-process limit of requests in flight. */
  maxConcurrent: number;
  /**
   * Requests started per minute (0 = no limit): per process, or for the whole account across every
   * worker when run by `parley worker` (shared through Redis, llm/shared-limit.ts).
   */
  rpm: number;
  /** Tokens (prompt + completion) per minute for the account across every worker; 0 = no limit. Shared runs only. */
  tpm: number;
  /** Ask for a streamed (SSE) reply and assemble it. */
  stream: boolean;
  /**
   * `chat` (`/v1/chat/completions`) or `completion`: `/v1/completions` with the messages written as one
   * raw `<human>: … <bot>: ` prompt, as SOTOPIA called Mixtral on Together. `openai:` specs only (the
   * server must serve `/v1/completions`: Together and vLLM do); no structured output on that path.
   */
  transport: 'chat' | 'completion';
}

/** The policy kind answered from recorded cassettes (`replay:<run-dir>`), which reads params like a provider. */
const REPLAY = 'replay';

const CLIENT_KEYS = [
  'structuredOutput',
  'timeoutMs',
  'maxRetries',
  'retryBaseMs',
  'retryMaxMs',
  'maxRetryAfterMs',
  'maxConcurrent',
  'rpm',
  'tpm',
  'stream',
  'transport',
] as const;

/**
 * A provider's defaults: its structured-output rung (llm/providers/), the rest shared. `replay` sends
 * nothing (cassettes answer), so it has no rung. Throws `llm/bad_spec` for an unknown provider.
 */
export function defaultOptions(provider: string): ClientOptions {
  return {
    structuredOutput: provider === REPLAY ? 'off' : providerOrThrow(provider).structuredOutput,
    timeoutMs: 60_000,
    maxRetries: 4,
    retryBaseMs: 500,
    retryMaxMs: 20_000,
    maxRetryAfterMs: 120_000,
    // High enough not to throttle a process hosting several seats (multiplexed pool); `rpm` and the
    // run's --concurrency are the knobs for a rate-limited provider.
    maxConcurrent: 32,
    rpm: 0,
    tpm: 0,
    stream: false,
    transport: 'chat',
  };
}

/** Client settings a policy's `params` may carry besides sampling parameters. */
export const CLIENT_SETTING_KEYS: readonly string[] = CLIENT_KEYS;

/** Splits `PolicyConfig.params` into client settings and the sampling params sent to the provider; an unknown key is a TypeError. */
export function splitParams(
  provider: string,
  params: Record<string, unknown> = {},
): { options: ClientOptions; sampling: Record<string, unknown> } {
  const options = defaultOptions(provider);
  const sampling: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!(CLIENT_KEYS as readonly string[]).includes(key)) {
      sampling[key] = value;
      continue;
    }
    if (key === 'structuredOutput') {
      if (value !== 'json_schema' && value !== 'json_object' && value !== 'prompt' && value !== 'off') {
        throw new TypeError(`params.structuredOutput must be json_schema, json_object, prompt or off (got ${JSON.stringify(value)})`);
      }
      options.structuredOutput = value;
    } else if (key === 'transport') {
      if (value !== 'chat' && value !== 'completion') throw new TypeError(`params.transport must be chat or completion (got ${JSON.stringify(value)})`);
      if (value === 'completion' && (provider === REPLAY || !providerOrThrow(provider).completionTransport)) throw new TypeError(`params.transport: completion needs an openai:<model> spec (or another provider with a completion transport) on a server with /v1/completions (Together, vLLM), not ${provider}`);
      options.transport = value;
    } else if (key === 'stream') {
      options.stream = value === true || value === 'true';
    } else {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new TypeError(`params.${key} must be a non-negative number (got ${JSON.stringify(value)})`);
      (options as unknown as Record<string, number>)[key] = n;
    }
  }
  options.maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent));
  const bad = unknownSamplingKey(provider, Object.keys(sampling));
  if (bad) {
    throw new TypeError(`params.${bad.key}: not a ${provider} sampling parameter or client setting (sampling: ${bad.allowed.join(', ')}; client: ${CLIENT_KEYS.join(', ')})`);
  }
  return { options, sampling };
}
