import type { PolicyConfig } from '../protocol/index.js';

/** Default key variable per provider prefix of a policy spec. */
const DEFAULT_KEY_ENV: Record<string, string> = { openai: 'OPENAI_API_KEY', mistral: 'MISTRAL_API_KEY' };
/** Base-URL variable per provider: a server reached by base URL may need no key. */
const BASE_URL_ENV: Record<string, string> = { openai: 'OPENAI_BASE_URL', mistral: 'MISTRAL_BASE_URL' };

export interface MissingKey {
  spec: string;
  variable: string;
}

/**
 * Which chosen LLM policies have no API key in `env`. Called before any episode starts, so a run
 * never half-completes for want of a key. Replays and bots need none, nor a server reached by base URL
 * with no key variable named (a keyless local server).
 */
export function missingKeys(configs: PolicyConfig[], env: NodeJS.ProcessEnv = process.env): MissingKey[] {
  const missing: MissingKey[] = [];
  for (const config of configs) {
    if (config.replayDir) continue;
    const provider = config.spec.split(':', 1)[0]!;
    const variable = config.apiKeyEnv ?? DEFAULT_KEY_ENV[provider];
    if (!variable) continue;
    // A base URL without a named key variable is a keyless local server (see createProviderClient).
    const baseURL = config.baseURL ?? env[BASE_URL_ENV[provider] ?? ''];
    if (baseURL && !config.apiKeyEnv) continue;
    if (!env[variable] && !missing.some((m) => m.variable === variable)) missing.push({ spec: config.spec, variable });
  }
  return missing;
}
