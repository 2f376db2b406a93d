import { providerNamed } from './providers/registry.js';

/**
 * The first sampling key `provider` does not accept (its `samplingKeys`, llm/providers/), with the
 * accepted ones, or null when all are fine or the provider is unknown (refused where the spec entered).
 * A misspelt `temprature` would otherwise be dropped or rejected mid-run, and the experiment would
 * silently run at the default temperature.
 */
export function unknownSamplingKey(provider: string, keys: readonly string[]): { key: string; allowed: readonly string[] } | null {
  const allowed = providerNamed(provider)?.samplingKeys;
  if (!allowed) return null;
  const key = keys.find((k) => !allowed.includes(k));
  return key === undefined ? null : { key, allowed };
}
