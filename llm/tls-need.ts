import { parsePolicySpec, type PolicyConfigInput } from '../protocol/index.js';
import { replaySource } from './replay-source.js';
import { providerNamed } from './providers/registry.js';

/**
 * Whether a process playing a seat with `config` may open a TLS connection: it calls an LLM endpoint
 * that is not plain `http://`, or one it cannot name here. False only when that is certain: a bot, a
 * person, a replay (answered from cassettes, its reformat requests too), or an LLM seat whose endpoint
 * and reformat endpoint are both `http://` (a local vLLM, Ollama or llama.cpp; the bench's fake server).
 *
 * Why it matters: Node 20 reads and parses NODE_EXTRA_CA_CERTS at start, ~60–100 ms of CPU on a system
 * bundle, in every agent process (the pool starts one per seat in flight). A process that never opens TLS
 * does not need it; one that might must keep it, since fetch (the Mistral SDK, streaming) sees it only at
 * start. Endpoints are resolved as the clients resolve them (llm/create-client.ts resolveProvider,
 * agent-node/policies/llm/reformat-client.ts): the seat's base URL, else its provider's base-URL variable
 * in `env`, else the provider's own (https); a reformat model without a base URL of its own inherits the
 * seat's when it is on the same provider. The default reformat model (SOTOPIA's) is on the seat's provider.
 */
export function policyMayUseTls(config: PolicyConfigInput, env: NodeJS.ProcessEnv): boolean {
  const parsed = parsePolicySpec(config.spec);
  if (!parsed.ok) return true;
  const spec = parsed.spec;
  if (spec.kind === 'bot' || spec.kind === 'human') return false;
  if (replaySource({ spec: config.spec, ...(config.replayDir ? { replayDir: config.replayDir } : {}) }) !== undefined) return false;
  if (spec.kind !== 'llm') return true;
  if (!plainHttp(spec.provider, config.baseURL, env)) return true;
  const reformat = config.reformat;
  if (!reformat) return false;
  const target = parsePolicySpec(reformat.spec);
  if (!target.ok || target.spec.kind !== 'llm') return true;
  const sameProvider = target.spec.provider === spec.provider;
  return !plainHttp(target.spec.provider, reformat.baseURL ?? (sameProvider ? config.baseURL : undefined), env);
}

/** Whether any of the policies may open TLS (see policyMayUseTls). */
export const policiesMayUseTls = (configs: readonly PolicyConfigInput[], env: NodeJS.ProcessEnv): boolean => configs.some((c) => policyMayUseTls(c, env));

/** The endpoint a provider's client reaches with this base URL (or none) is a plain `http://` one. */
function plainHttp(providerName: string, baseURL: string | undefined, env: NodeJS.ProcessEnv): boolean {
  const provider = providerNamed(providerName);
  if (!provider) return false;
  const url = baseURL || env[provider.env.baseURL] || provider.defaultBaseURL;
  try {
    return new URL(url).protocol === 'http:';
  } catch {
    return false;
  }
}
