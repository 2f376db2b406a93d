import type { BatchApi, BatchSettings } from '../openai-batch.js';
import type { FinetuneApi, FinetuneMethod, ProviderAccess } from '../finetune-api.js';
import type { ClientOptions, StructuredMode } from '../options.js';
import type { RetryDeps } from '../retry.js';
import type { LlmClient } from '../types.js';

/** What a provider's chat client is built from: the resolved endpoint, key, model and split params. */
export interface ProviderClientSettings {
  model: string;
  apiKey: string;
  /** The base URL as the user wrote it (flag, config or env variable); undefined = the provider's own. */
  baseURL: string | undefined;
  options: ClientOptions;
  sampling: Record<string, unknown>;
}

/**
 * One LLM provider: everything Parley knows about it, in one file per provider (llm/providers/<name>.ts),
 * registered in llm/providers/registry.ts. Callers look a provider up by the name before the colon of a
 * policy spec and use these members; none of them tests a provider's name.
 */
export interface Provider {
  /** The name before the colon of a policy spec (`openai` of `openai:gpt-4`); `[a-z][a-z0-9-]*`. */
  readonly name: string;
  /** The default environment variables of its key and base URL (a seat may name its own with `apiKeyEnv` / `baseURL`). */
  readonly env: { readonly key: string; readonly baseURL: string };
  /** The provider's own endpoint, as a user would write it in `baseURL`: what a preflight checks when none is set. */
  readonly defaultBaseURL: string;
  /** The base URL a user writes for a compatible server listening at `origin` (`http://host:port`). */
  baseURLAt(origin: string): string;
  /** The URL of its model list under a base URL (a GET costs no tokens: the judge's preflight). */
  modelsURL(baseURL: string): string;
  /** The structured-output rung a client starts on unless `params.structuredOutput` says otherwise. */
  readonly structuredOutput: StructuredMode;
  /** Sampling parameters it accepts, in the spellings Parley takes; any other key is refused before a call. */
  readonly samplingKeys: readonly string[];
  /** Whether `params.transport: completion` (`/v1/completions` with one raw prompt) is served. */
  readonly completionTransport: boolean;
  /**
   * Under `--protocol paper`, where a seat's (and `parley eval`'s judge's) one reformat request goes by
   * default: `sotopia-model` = SOTOPIA's reformat model (gpt-3.5-turbo) on this provider's endpoint and
   * key, `own` = the seat's own model (a provider that does not serve SOTOPIA's model).
   */
  readonly paperReformat: 'sotopia-model' | 'own';
  /** A live chat client (retries, limiter, structured-output ladder included). */
  client(settings: ProviderClientSettings, deps?: RetryDeps): LlmClient;
  /** Its batch interface, for `eval --batch` and `compare --batch` (`settings.baseURL` as the user wrote it). */
  batchApi(settings: BatchSettings): BatchApi;
  /** Its files and fine-tuning APIs, for `parley finetune`; absent when the provider offers none. */
  readonly finetune?: {
    api(access: ProviderAccess): Promise<FinetuneApi>;
    /** Whether a job id is recognisably this provider's (so `finetune status` needs no `--provider`). */
    ownsJobId(id: string): boolean;
    /** The training methods its jobs take: `supervised` (chat examples), `dpo` (preference pairs). */
    readonly methods: readonly FinetuneMethod[];
  };
  /** Its price table: model (exact) or `prefix*` → US$ per million tokens; a JSON file or the table itself. */
  readonly prices: string | Readonly<Record<string, unknown>>;
  /** The tokenizer encoding Parley ships for a model, or null (then tokens are estimated). */
  tokenEncoding(model: string): 'cl100k_base' | 'o200k_base' | null;
}
