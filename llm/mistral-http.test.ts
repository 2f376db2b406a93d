import { describe, expect, it } from 'vitest';
import { chatUrl, plainCompletion, type MistralAnswer } from './mistral-http.js';

const answer = (body: unknown, status = 200, type = 'application/json; charset=utf-8'): MistralAnswer => {
  const all = new Map([['content-type', type]]);
  return { status, headers: { get: (n) => all.get(n) ?? null }, text: JSON.stringify(body), all };
};

/** A reply of Mistral's API as it comes (tool_calls null, prefix false). */
const API_REPLY = {
  id: 'a1b2',
  object: 'chat.completion',
  model: 'open-mixtral-8x7b',
  usage: { prompt_tokens: 900, total_tokens: 920, completion_tokens: 20 },
  created: 1732790000,
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', tool_calls: null, content: '{"action_type":"speak","argument":"Hi"}', prefix: false } }],
};

describe('plainCompletion: the answers the light path reads without the SDK', () => {
  it("reads Mistral's usual reply itself (the SDK's matchers are not loaded for it)", () => {
    expect(plainCompletion(answer(API_REPLY))).toEqual(API_REPLY);
  });

  it.each<[string, MistralAnswer]>([
    ['another status', answer(API_REPLY, 201)],
    ['another content type', answer(API_REPLY, 200, 'text/plain')],
    ['content chunks', answer({ ...API_REPLY, choices: [{ index: 0, finish_reason: 'stop', message: { content: [{ type: 'text', text: 'x' }] } }] })],
    ['tool calls', answer({ ...API_REPLY, choices: [{ index: 0, finish_reason: 'tool_calls', message: { content: '', tool_calls: [] } }] })],
    ['a usage field the schema renames', answer({ ...API_REPLY, usage: { ...API_REPLY.usage, service_tier: 'standard' } })],
    ['a missing id', answer({ ...API_REPLY, id: undefined })],
  ])('leaves %s to the SDK', (_what, a) => {
    expect(plainCompletion(a)).toBeNull();
  });

  it('throws JSON.parse’s error for a body that is not JSON, as the SDK’s matcher does', () => {
    expect(() => plainCompletion({ ...answer(null), text: '{"choices": [' })).toThrow(SyntaxError);
  });
});

describe('chatUrl: the endpoint under a server URL, as the SDK builds it', () => {
  it.each([
    ['https://api.mistral.ai', 'https://api.mistral.ai/v1/chat/completions'],
    ['http://127.0.0.1:8000/proxy/', 'http://127.0.0.1:8000/proxy/v1/chat/completions'],
    ['http://h/p//?q=1#f', 'http://h/p/v1/chat/completions'],
  ])('%s → %s', (server, url) => {
    expect(chatUrl(server).href).toBe(url);
  });
});
