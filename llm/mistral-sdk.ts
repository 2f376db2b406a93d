import type { Mistral } from '@mistralai/mistralai';
import type { SDKOptions } from '@mistralai/mistralai/lib/config.js';
import { fetchWithCallSignal } from './attempt-signal.js';

/**
 * A Mistral SDK client, its module imported on first use (it weighs ~80 MB and ~0.5 s per process, which an
 * agent process playing an OpenAI-compatible seat or a bot must not pay).
 *
 * Its fetches take the signal of the call they belong to (`withCallSignal`), not the one the SDK threads
 * through a `Request` and its clone: that path links signals weakly on Node 20, and a garbage collection
 * during a hanging request left the call hanging for good (test/llm/gc-abort.test.ts).
 */
export async function loadMistral(options: Omit<SDKOptions, 'httpClient'>): Promise<Mistral> {
  const [sdk, http] = await Promise.all([import('@mistralai/mistralai'), import('@mistralai/mistralai/lib/http.js')]);
  return new sdk.Mistral({ ...options, httpClient: new http.HTTPClient({ fetcher: fetchWithCallSignal }) });
}
