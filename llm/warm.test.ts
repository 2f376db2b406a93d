import { describe, expect, it } from 'vitest';
import { createProviderClient } from './create-client.js';
import { preloaded, warmProvider } from './warm.js';

const key = { env: { WARM_TEST_KEY: 'k' } };

describe('warm-up of an LLM seat', () => {
  it('only loads the light HTTP path of an openai: or mistral: seat (http and https endpoints, no key needed): no throw-away request', async () => {
    expect(await preloaded({ spec: 'openai:m', baseURL: 'http://127.0.0.1:9/v1', params: {} })).toBe(true);
    expect(await preloaded({ spec: 'mistral:m', params: {} })).toBe(true);
    expect(await preloaded({ spec: 'mistral:m', baseURL: 'http://127.0.0.1:9', params: {} })).toBe(true);
    expect(await preloaded({ spec: 'openai:m', baseURL: 'https://example.invalid/v1', apiKeyEnv: 'NO_SUCH_KEY', params: {} })).toBe(true);
    await expect(warmProvider({ spec: 'openai:m', baseURL: 'http://127.0.0.1:9/v1', params: {} })).resolves.toBeUndefined();
  });

  it('leaves the throw-away request to the seats the SDK sends for (streaming) and to unreadable params', async () => {
    expect(await preloaded({ spec: 'openai:m', baseURL: 'http://127.0.0.1:9/v1', params: { stream: true } })).toBe(false);
    expect(await preloaded({ spec: 'mistral:m', params: { stream: true } })).toBe(false);
    expect(await preloaded({ spec: 'openai:m', params: { maxRetries: 'many' } })).toBe(false);
  });

  it('LlmClient.preload is offered by the light path only, and resolves', async () => {
    expect(createProviderClient({ spec: 'openai:m', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'WARM_TEST_KEY', params: { stream: true } }, key).preload).toBeUndefined();
    expect(createProviderClient({ spec: 'mistral:m', apiKeyEnv: 'WARM_TEST_KEY', params: { stream: true } }, key).preload).toBeUndefined();
    const client = createProviderClient({ spec: 'openai:m', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'WARM_TEST_KEY', params: {} }, key);
    await expect(client.preload!()).resolves.toBeUndefined();
    const mistral = createProviderClient({ spec: 'mistral:m', baseURL: 'http://127.0.0.1:9', apiKeyEnv: 'WARM_TEST_KEY', params: {} }, key);
    await expect(mistral.preload!()).resolves.toBeUndefined();
  });
});
