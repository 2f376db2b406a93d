import { modelRefOf } from '../protocol/index.js';
import { providerNamed } from '../llm/index.js';
import { getStatus } from '../llm/get-status.js';

/**
 * One check of the judge's endpoint before any episode is judged: an unreachable base URL (or a
 * rejected key) is reported once, naming the URL, instead of as a connection error on every episode.
 * It sends one GET to the server's model list, which costs no tokens; any HTTP answer but 401/403
 * counts as reachable (OpenAI-compatible servers differ in what else they serve).
 */

/** The base URL a judge spec will call: the flag, else its provider's env variable, else its own endpoint; null for no live provider. */
export function judgeBaseUrl(spec: string, baseURL: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const ref = modelRefOf(spec);
  const provider = ref && providerNamed(ref.provider);
  if (!provider) return null;
  return baseURL ?? (env[provider.env.baseURL] || provider.defaultBaseURL);
}

/** Null when the endpoint answers, else a one-line reason naming the URL. */
export async function checkJudgeEndpoint(
  spec: string,
  opts: { baseURL?: string; apiKeyEnv?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string | null> {
  const env = opts.env ?? process.env;
  const ref = modelRefOf(spec);
  const provider = ref && providerNamed(ref.provider);
  // Replay and other non-network judges need no check; an unknown provider is refused where the spec entered.
  if (!provider) return null;
  const base = judgeBaseUrl(spec, opts.baseURL, env)!;
  const key = env[opts.apiKeyEnv ?? provider.env.key];
  const got = await getStatus(provider.modelsURL(base), key ? { authorization: `Bearer ${key}` } : {}, opts.timeoutMs ?? 10_000);
  if ('why' in got) return `judge ${spec}: cannot reach ${base} (${got.why}); check --base-url or ${provider.env.baseURL}`;
  if (got.status === 401 || got.status === 403) return `judge ${spec}: ${base} refused the key (HTTP ${got.status})`;
  return null;
}
