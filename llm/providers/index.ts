/** The provider registry: one file per provider, looked up by the name before a spec's colon. */
export type { Provider, ProviderClientSettings } from './provider.js';
export { allProviders, providerNamed, providerOrThrow, registerProvider } from './registry.js';
