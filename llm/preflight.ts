import { llmProviderOf, type PolicyConfig } from '../protocol/index.js';
import { providerOrThrow } from './providers/registry.js';

export interface MissingKey {
  spec: string;
  variable: string;
}

/**
 * Which chosen LLM policies have no API key in `env`. Called before any episode starts, so a run
 * never half-completes for want of a key. Replays and bots need none, nor a seat given its own base URL
 * and no key variable (a keyless local server).
 */
export function missingKeys(configs: PolicyConfig[], env: NodeJS.ProcessEnv = process.env): MissingKey[] {
  const missing: MissingKey[] = [];
  // A reformat model served elsewhere needs its own key (on the seat's provider it shares the seat's endpoint and key).
  const reformats = configs.flatMap((c) => {
    if (!c.reformat || c.replayDir) return [];
    const same = llmProviderOf(c.reformat.spec) === llmProviderOf(c.spec);
    const baseURL = c.reformat.baseURL ?? (same ? c.baseURL : undefined);
    const apiKeyEnv = c.reformat.apiKeyEnv ?? (same ? c.apiKeyEnv : undefined);
    return [{ spec: c.reformat.spec, params: {}, ...(baseURL ? { baseURL } : {}), ...(apiKeyEnv ? { apiKeyEnv } : {}) }];
  });
  for (const config of [...configs, ...reformats] as PolicyConfig[]) {
    if (config.replayDir) continue;
    const provider = llmProviderOf(config.spec);
    if (!provider) continue;
    // An unknown provider is refused (llm/bad_spec), never checked as some other provider's key.
    const variable = config.apiKeyEnv ?? providerOrThrow(provider).env.key;
    // A seat's own base URL without a named key variable is a keyless local server (see createProviderClient).
    if (config.baseURL && !config.apiKeyEnv) continue;
    if (!env[variable] && !missing.some((m) => m.variable === variable)) missing.push({ spec: config.spec, variable });
  }
  return missing;
}
