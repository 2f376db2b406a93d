import { describe, expect, it } from 'vitest';
import { missingKeys } from './preflight.js';
import { createClient } from './create-client.js';

describe('a key only when the provider needs one', () => {
  it("a seat's own base URL alone (keyless local server) needs no key; a named key variable, or a base URL from the environment, still does", () => {
    expect(missingKeys([{ spec: 'openai:llama3', params: {}, baseURL: 'http://127.0.0.1:8000/v1' }], {})).toEqual([]);
    expect(missingKeys([{ spec: 'openai:llama3', params: {} }], { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' })).toEqual([{ spec: 'openai:llama3', variable: 'OPENAI_API_KEY' }]);
    expect(missingKeys([{ spec: 'openai:m', params: {}, baseURL: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY' }], {})).toEqual([
      { spec: 'openai:m', variable: 'TOGETHER_API_KEY' },
    ]);
    expect(missingKeys([{ spec: 'openai:gpt-4', params: {} }], {})).toEqual([{ spec: 'openai:gpt-4', variable: 'OPENAI_API_KEY' }]);
    expect(() => createClient({ spec: 'openai:llama3', baseURL: 'http://127.0.0.1:8000/v1' }, { env: {} })).not.toThrow();
  });

  it('a misspelt sampling parameter stops the client before any request', () => {
    expect(() => createClient({ spec: 'openai:gpt-4', params: { temprature: 0 } }, { env: { OPENAI_API_KEY: 'k' } })).toThrow(/params\.temprature: not a openai sampling parameter/);
  });
});
