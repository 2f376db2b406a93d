import type { PolicyConfigInput } from '../protocol/index.js';
import { RecordingClient, ReplayClient, type CassetteFiles } from './cassette.js';
import { LlmError, LlmErrorCode } from './errors.js';
import { splitParams } from './options.js';
import type { Provider } from './providers/provider.js';
import { providerOrThrow } from './providers/registry.js';
import type { RetryDeps } from './retry.js';
import { parseSpec } from './spec.js';
import { replaySource } from './replay-source.js';

export { replaySource };
import type { LlmClient, ModelSpec } from './types.js';

/** The key sent to a server reached by base URL with no key configured. */
const KEYLESS = 'no-key';

/** Either a seat's `PolicyConfig` (`spec: 'openai:gpt-4'`) or a `ModelSpec` (`provider`, `model`). */
export type ClientConfig = PolicyConfigInput | ModelSpec;

export interface CreateClientOptions {
  /**
   * The seat's cassette files (run-dir/cassette-layout.ts `policyCassettes`): calls are recorded to
   * `record` and, when `replayDir` is set (or the spec is `replay:<dir>`), answered from `replay` instead.
   */
  cassettes?: CassetteFiles;
  env?: NodeJS.ProcessEnv;
  /** Test hooks for the retry loop (clock, jitter). */
  retryDeps?: RetryDeps;
  /**
   * A provider client made earlier from the same config (createProviderClient), to reuse instead of
   * building another: a seat's policy plays many episodes, each on its own cassette, and building an SDK
   * client per episode was ~5% of an agent process's CPU. Ignored when replaying.
   */
  provider?: LlmClient;
}

interface Normalised {
  /** A registered provider's name, or `replay`. */
  provider: string;
  model: string;
  baseURL?: string;
  apiKeyEnv?: string;
  params: Record<string, unknown>;
  cassetteDir?: string;
  replayDir?: string;
  resume?: boolean;
}

function normalise(config: ClientConfig): Normalised {
  const base = 'spec' in config ? parseSpec(config.spec) : { provider: config.provider, model: config.model };
  const out: Normalised = { ...base, params: config.params ?? {} };
  if (config.baseURL) out.baseURL = config.baseURL;
  if (config.apiKeyEnv) out.apiKeyEnv = config.apiKeyEnv;
  if ('cassetteDir' in config && config.cassetteDir) out.cassetteDir = config.cassetteDir;
  if ('replayDir' in config && config.replayDir) out.replayDir = config.replayDir;
  if ('resume' in config && config.resume) out.resume = true;
  return out;
}

/**
 * A live config's provider, model, key, base URL and split params, as the clients use them (the batch
 * interface, llm/openai-batch.ts, reaches the same endpoint with the same key). Throws `llm/no_key` naming
 * the variable when the key is missing.
 */
export function resolveProvider(config: ClientConfig, env: NodeJS.ProcessEnv = process.env): { provider: Provider; model: string; apiKey: string; baseURL: string | undefined } & ReturnType<typeof splitParams> {
  const c = normalise(config);
  if (replaySource(config)) throw new LlmError(LlmErrorCode.BadSpec, 'a replay client needs a tape (episode and seat)');
  const provider = providerOrThrow(c.provider);
  const names = provider.env;
  const keyVar = c.apiKeyEnv ?? names.key;
  const baseURL = c.baseURL ?? (env[names.baseURL] || undefined);
  // A seat given its own base URL and no key variable is a keyless local server (vLLM, Ollama,
  // llama.cpp): no key is demanded. The SDKs still want a string; such servers ignore it. A base URL
  // from the environment (OPENAI_BASE_URL) usually names a proxy that does want the usual key.
  const apiKey = env[keyVar] || (c.baseURL && !c.apiKeyEnv ? KEYLESS : undefined);
  if (!apiKey) throw new LlmError(LlmErrorCode.NoKey, `${c.provider}:${c.model} needs an API key in $${keyVar}`);
  return { provider, model: c.model, apiKey, baseURL, ...splitParams(provider.name, c.params) };
}

/**
 * A live client of a registered provider (no cassettes). Throws `llm/no_key` naming the variable when
 * the key is missing, and `llm/bad_spec` for a replay or an unknown provider.
 */
export function createProviderClient(config: ClientConfig, options: CreateClientOptions = {}): LlmClient {
  const { provider, model, apiKey, baseURL, options: clientOptions, sampling } = resolveProvider(config, options.env ?? process.env);
  return provider.client({ model, apiKey, baseURL, options: clientOptions, sampling }, options.retryDeps);
}


/**
 * The provider-neutral client for a seat, judge or generator.
 *  - `<provider>:<model>` — the registered provider's client (llm/providers/), its key from its key
 *    variable (or `apiKeyEnv`), its base URL from `baseURL` or its base-URL variable.
 *  - with `options.cassettes.record`: recorded to that file; with `replayDir` or `replay:<dir>`, answered
 *    from `options.cassettes.replay` with no network (run-dir/cassette-layout.ts names both files).
 * Client settings (`structuredOutput`, `timeoutMs`, `maxRetries`, `maxConcurrent`, `rpm`, `stream`…) ride
 * in `params`; the rest of `params` are sampling params sent to the provider.
 */
export function createClient(config: ClientConfig, options: CreateClientOptions = {}): LlmClient {
  const c = normalise(config);
  const replayFrom = replaySource(config);
  let client: LlmClient;
  if (replayFrom) {
    if (!options.cassettes?.replay) throw new LlmError(LlmErrorCode.BadSpec, 'replay needs a tape (episode and seat) to find its cassette');
    const fallback = c.provider === 'replay' ? { provider: 'replay', model: c.model } : { provider: c.provider, model: c.model };
    client = new ReplayClient(options.cassettes.replay, fallback, { resume: c.resume === true });
  } else {
    client = options.provider ?? createProviderClient(config, options);
  }
  if (options.cassettes?.record) client = new RecordingClient(client, options.cassettes.record, { resume: c.resume === true });
  return client;
}
