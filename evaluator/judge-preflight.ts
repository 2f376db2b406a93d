/**
 * One check of the judge's endpoint before any episode is judged: an unreachable base URL (or a
 * rejected key) is reported once, naming the URL, instead of as a connection error on every episode.
 * It sends one GET to the server's model list, which costs no tokens; any HTTP answer but 401/403
 * counts as reachable (OpenAI-compatible servers differ in what else they serve).
 */
const DEFAULT_BASE: Record<string, string> = { openai: 'https://api.openai.com/v1', mistral: 'https://api.mistral.ai' };
const ENV: Record<string, { key: string; base: string }> = {
  openai: { key: 'OPENAI_API_KEY', base: 'OPENAI_BASE_URL' },
  mistral: { key: 'MISTRAL_API_KEY', base: 'MISTRAL_BASE_URL' },
};

/** The base URL a judge spec will call: the flag, else the provider's env variable, else its default. */
export function judgeBaseUrl(spec: string, baseURL: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const provider = spec.slice(0, spec.indexOf(':'));
  if (!(provider in DEFAULT_BASE)) return null;
  return baseURL ?? (env[ENV[provider]!.base] || DEFAULT_BASE[provider]!);
}

/** Null when the endpoint answers, else a one-line reason naming the URL. */
export async function checkJudgeEndpoint(
  spec: string,
  opts: { baseURL?: string; apiKeyEnv?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string | null> {
  const env = opts.env ?? process.env;
  const base = judgeBaseUrl(spec, opts.baseURL, env);
  if (!base) return null; // replay and other non-network judges need no check
  const provider = spec.slice(0, spec.indexOf(':'));
  const key = env[opts.apiKeyEnv ?? ENV[provider]!.key];
  const mistral = provider === 'mistral';
  const url = `${base.replace(/\/+$/, '')}${mistral && !/\/v1$/.test(base.replace(/\/+$/, '')) ? '/v1' : ''}/models`;
  try {
    const res = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
    await res.body?.cancel();
    if (res.status === 401 || res.status === 403) return `judge ${spec}: ${base} refused the key (HTTP ${res.status})`;
    return null;
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `judge ${spec}: cannot reach ${base} (${cause?.code ?? cause?.message ?? (err as Error).message}); check --base-url or ${ENV[provider]!.base}`;
  }
}
