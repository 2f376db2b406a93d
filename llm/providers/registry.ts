import { LlmError, LlmErrorCode } from '../errors.js';
import { mistral } from './mistral.js';
import { openai } from './openai.js';
import type { Provider } from './provider.js';

/**
 * The providers Parley can call, by the name before the colon of a policy spec. Adding one is one file
 * in this folder and one entry here; nothing else names a provider. A name that is not here is refused
 * wherever a spec enters (never played as some other provider).
 */
const providers = new Map<string, Provider>([openai, mistral].map((p) => [p.name, p]));

/** Names a spec may not use for a provider: the other policy kinds. */
const RESERVED = new Set(['bot', 'human', 'replay']);
const NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** The provider of that name, or undefined. */
export const providerNamed = (name: string): Provider | undefined => providers.get(name);

/** Every registered provider, in registration order. */
export const allProviders = (): Provider[] => [...providers.values()];

/** The provider of that name; `llm/bad_spec` naming the registered ones when there is none. */
export function providerOrThrow(name: string): Provider {
  const p = providers.get(name);
  if (!p) throw new LlmError(LlmErrorCode.BadSpec, `unknown LLM provider '${name}' (known: ${[...providers.keys()].join(', ')})`);
  return p;
}

/**
 * Adds a provider to this process's registry (a plug-in, or a test's fake). Returns the function that
 * removes it again. A name already taken, reserved or malformed is a TypeError.
 */
export function registerProvider(p: Provider): () => void {
  if (!NAME.test(p.name) || RESERVED.has(p.name)) throw new TypeError(`provider name '${p.name}' must match ${NAME} and not be bot, human or replay`);
  if (providers.has(p.name)) throw new TypeError(`provider '${p.name}' is registered already`);
  providers.set(p.name, p);
  return () => {
    if (providers.get(p.name) === p) providers.delete(p.name);
  };
}
