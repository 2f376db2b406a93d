import { describe, expect, it } from 'vitest';
import { policiesMayUseTls, policyMayUseTls } from './tls-need.js';

const none: NodeJS.ProcessEnv = {};
const local = 'http://127.0.0.1:8000/v1';

describe('policyMayUseTls: whether an agent process may go without NODE_EXTRA_CA_CERTS', () => {
  it('bots, people and replays open no TLS', () => {
    expect(policyMayUseTls({ spec: 'bot' }, none)).toBe(false);
    expect(policyMayUseTls({ spec: 'bot:chatter' }, none)).toBe(false);
    expect(policyMayUseTls({ spec: 'human' }, none)).toBe(false);
    expect(policyMayUseTls({ spec: 'replay:runs/a' }, none)).toBe(false);
    // A live spec answered from cassettes: no request leaves the process, its reformat requests neither.
    expect(policyMayUseTls({ spec: 'openai:gpt-4o', replayDir: 'runs/a', reformat: { spec: 'openai:gpt-4o' } }, none)).toBe(false);
  });

  it('an LLM seat on a plain http:// endpoint opens none; on the provider default or https:// it may', () => {
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: local }, none)).toBe(false);
    expect(policyMayUseTls({ spec: 'mistral:m', baseURL: 'http://gpu-box:8000' }, none)).toBe(false);
    expect(policyMayUseTls({ spec: 'openai:gpt-4o' }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'mistral:open-mixtral-8x7b' }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: 'https://api.together.xyz/v1' }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: 'HTTPS://example.com' }, none)).toBe(true);
  });

  it('the base URL comes from the provider variable when the seat names none, as the clients resolve it', () => {
    expect(policyMayUseTls({ spec: 'openai:m' }, { OPENAI_BASE_URL: local })).toBe(false);
    expect(policyMayUseTls({ spec: 'openai:m' }, { OPENAI_BASE_URL: 'https://proxy.example/v1' })).toBe(true);
    // Empty is unset (resolveProvider: `env[...] || undefined`): the provider's own https endpoint.
    expect(policyMayUseTls({ spec: 'openai:m' }, { OPENAI_BASE_URL: '' })).toBe(true);
    // Another provider's variable does not count.
    expect(policyMayUseTls({ spec: 'mistral:m' }, { OPENAI_BASE_URL: local })).toBe(true);
    // The seat's own base URL wins over the variable, either way.
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: 'https://x.example' }, { OPENAI_BASE_URL: local })).toBe(true);
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: local }, { OPENAI_BASE_URL: 'https://x.example' })).toBe(false);
  });

  it('a reformat model counts: its own endpoint, else the seat’s when on the same provider', () => {
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: local, reformat: { spec: 'openai:gpt-3.5-turbo' } }, none)).toBe(false);
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: local, reformat: { spec: 'openai:gpt-3.5-turbo', baseURL: 'https://api.openai.com/v1' } }, none)).toBe(true);
    // Another provider does not inherit the seat's base URL: its own default is https.
    expect(policyMayUseTls({ spec: 'mistral:m', baseURL: local, reformat: { spec: 'openai:gpt-3.5-turbo' } }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'mistral:m', baseURL: local, reformat: { spec: 'openai:x', baseURL: local } }, none)).toBe(false);
  });

  it('anything it cannot name may: an unknown provider, a malformed spec or URL', () => {
    expect(policyMayUseTls({ spec: 'acme:model', baseURL: local }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'not a spec' }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: 'not a url' }, none)).toBe(true);
    expect(policyMayUseTls({ spec: 'openai:m', baseURL: 'ws://127.0.0.1:1' }, none)).toBe(true);
  });

  it('a set of policies may if any one may', () => {
    expect(policiesMayUseTls([{ spec: 'bot' }, { spec: 'openai:m', baseURL: local }], none)).toBe(false);
    expect(policiesMayUseTls([{ spec: 'bot' }, { spec: 'openai:m' }], none)).toBe(true);
  });
});
