import { describe, expect, it } from 'vitest';
import { ErrorCode } from './codes.js';
import { llmProviderOf, modelRefOf, parsePolicySpec, policyKind } from './policy-spec.js';

describe('parsePolicySpec (the one parser of policy specs)', () => {
  it.each([
    ['bot', { kind: 'bot' }],
    ['bot:tit-for-tat', { kind: 'bot', name: 'tit-for-tat' }],
    ['human', { kind: 'human' }],
    ['openai:gpt-4', { kind: 'llm', provider: 'openai', model: 'gpt-4' }],
    ['openai:ft:gpt-3.5-turbo:org:id', { kind: 'llm', provider: 'openai', model: 'ft:gpt-3.5-turbo:org:id' }],
    ['mistral:open-mixtral-8x7b', { kind: 'llm', provider: 'mistral', model: 'open-mixtral-8x7b' }],
    ['replay:runs/a', { kind: 'replay', dir: 'runs/a' }],
    // The grammar admits any provider name; llm/providers/ refuses one that is not registered.
    ['anthropic:claude', { kind: 'llm', provider: 'anthropic', model: 'claude' }],
    ['  human  ', { kind: 'human' }],
  ])('%s', (raw, spec) => {
    expect(parsePolicySpec(raw)).toEqual({ ok: true, spec });
  });

  it.each(['', 'gpt-4', 'openai:', 'mistral:  ', 'Open AI:x', '1x:y', 'bot:two words', 'replay:a b', 'humans', 'bot:a/b'])('rejects %j with a code', (raw) => {
    const r = parsePolicySpec(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(ErrorCode.UnknownPolicy);
      expect(r.message).toContain('<provider>:<model>');
    }
  });

  it('derives the helpers from the one parser', () => {
    expect(llmProviderOf('mistral:m')).toBe('mistral');
    expect(modelRefOf('openai:ft:gpt-4o:x')).toEqual({ provider: 'openai', model: 'ft:gpt-4o:x' });
    expect(modelRefOf('replay:r')).toBeUndefined();
    expect(llmProviderOf('replay:r')).toBeUndefined();
    expect(llmProviderOf('bot')).toBeUndefined();
    expect(policyKind('bot:x')).toBe('bot');
    expect(policyKind('nope')).toBeUndefined();
  });
});
