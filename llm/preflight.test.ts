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

  it('a reformat model served elsewhere needs its own key; on the seat\'s provider it shares the seat\'s', () => {
    const together = { spec: 'openai:mixtral', params: {}, baseURL: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY' };
    const env = { TOGETHER_API_KEY: 't' };
    expect(missingKeys([{ ...together, reformat: { spec: 'openai:gpt-3.5-turbo', baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' } }], env)).toEqual([{ spec: 'openai:gpt-3.5-turbo', variable: 'OPENAI_API_KEY' }]);
    expect(missingKeys([{ ...together, reformat: { spec: 'openai:gpt-3.5-turbo' } }], env)).toEqual([]);
    expect(missingKeys([{ ...together, reformat: { spec: 'mistral:open-mistral-7b' } }], env)).toEqual([{ spec: 'mistral:open-mistral-7b', variable: 'MISTRAL_API_KEY' }]);
  });

  it('a misspelt sampling parameter stops the client before any request', () => {
    expect(() => createClient({ spec: 'openai:gpt-4', params: { temprature: 0 } }, { env: { OPENAI_API_KEY: 'k' } })).toThrow(/params\.temprature: not a openai sampling parameter/);
  });
});
