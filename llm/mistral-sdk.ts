import type { Mistral } from '@mistralai/mistralai';
import type { MistralCore } from '@mistralai/mistralai/core.js';
import type { chatComplete } from '@mistralai/mistralai/funcs/chatComplete.js';
import type { chatStream } from '@mistralai/mistralai/funcs/chatStream.js';
import type { SDKOptions } from '@mistralai/mistralai/lib/config.js';
import { fetchWithCallSignal } from './attempt-signal.js';

/**
 * Mistral SDK clients, their modules imported on first use (an agent process playing an OpenAI-compatible
 * seat or a bot must not pay for them).
 *
 * Their fetches take the signal of the call they belong to (`withCallSignal`), not the one the SDK threads
 * through a `Request` and its clone: that path links signals weakly on Node 20, and a garbage collection
 * during a hanging request left the call hanging for good (test/llm/gc-abort.test.ts).
 */
export type MistralClientOptions = Omit<SDKOptions, 'httpClient'>;

/** What a chat seat needs: the SDK's standalone chat functions, bound to one `MistralCore`. */
export interface MistralChat {
  complete: (...a: Tail<Parameters<typeof chatComplete>>) => ReturnType<typeof chatComplete>;
  stream: (...a: Tail<Parameters<typeof chatStream>>) => ReturnType<typeof chatStream>;
}
type Tail<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;

/**
 * The chat functions on a `MistralCore`, the SDK's minimal client: ~1 MB of the SDK's modules instead of
 * the whole SDK's 2.4 MB (every API's schemas and sub-clients), which cost an agent process ~0.2 CPU-s to load
 * (bench/start-up.md). The same options, HTTP client and request code as `Mistral`'s `chat` (which calls
 * these very functions), so the same bytes go out; they return a Result where `chat` threw its error.
 */
export async function loadMistralChat(options: MistralClientOptions): Promise<MistralChat> {
  const [core, complete, stream, http] = await Promise.all([
    import('@mistralai/mistralai/core.js'),
    import('@mistralai/mistralai/funcs/chatComplete.js'),
    import('@mistralai/mistralai/funcs/chatStream.js'),
    import('@mistralai/mistralai/lib/http.js'),
  ]);
  const client: MistralCore = new core.MistralCore({ ...options, httpClient: new http.HTTPClient({ fetcher: fetchWithCallSignal }) });
  return { complete: (...a) => complete.chatComplete(client, ...a), stream: (...a) => stream.chatStream(client, ...a) };
}

/** The whole SDK, for what only it offers (batch jobs, files). */
export async function loadMistral(options: MistralClientOptions): Promise<Mistral> {
  const [sdk, http] = await Promise.all([import('@mistralai/mistralai'), import('@mistralai/mistralai/lib/http.js')]);
  return new sdk.Mistral({ ...options, httpClient: new http.HTTPClient({ fetcher: fetchWithCallSignal }) });
}
