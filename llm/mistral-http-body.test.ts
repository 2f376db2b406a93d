import { ChatCompletionRequest$outboundSchema } from '@mistralai/mistralai/models/components/chatcompletionrequest.js';
import { describe, expect, it } from 'vitest';
import { mistralBodyJson } from './mistral-http-body.js';

/** What the SDK's `chatComplete` sends as the body: its outbound schema's output, as JSON. */
const sdkJson = (body: Record<string, unknown>) => JSON.stringify(ChatCompletionRequest$outboundSchema.parse(body as never));

const messages = [{ role: 'system', content: 'Be brief — “quoted” \u2028' }, { role: 'user', content: 'Turn #1' }];
const schema = { name: 'parley_action', schemaDefinition: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, strict: true };

describe('mistralBodyJson: the SDK body, written directly', () => {
  it.each<[string, Record<string, unknown>]>([
    ['a bare request', { model: 'm', messages }],
    ['fields in another order than the schema', { messages, randomSeed: 3, model: 'm', maxTokens: 9, temperature: 0.5, topP: 1 }],
    ['every simple field, nulls included', { model: 'm', messages, temperature: null, topP: 0.2, maxTokens: null, stream: false, stop: ['a', 'b'], randomSeed: null, presencePenalty: 0.1, frequencyPenalty: null, n: 2, parallelToolCalls: true, promptCacheKey: 'k', safePrompt: true }],
    ['a stop string', { model: 'm', messages, stop: 'END' }],
    ['JSON mode', { model: 'm', messages, responseFormat: { type: 'json_object' } }],
    ['a JSON schema', { model: 'm', messages, responseFormat: { type: 'json_schema', jsonSchema: schema } }],
    ['a JSON schema without strict', { model: 'm', messages, responseFormat: { type: 'json_schema', jsonSchema: { name: 'x', schemaDefinition: {} } } }],
    ['an assistant message', { model: 'm', messages: [...messages, { role: 'assistant', content: 'not json' }, { role: 'user', content: 'again' }] }],
    ['fields the SDK does not know, and undefined ones', { model: 'm', messages, seed: 4, max_tokens: 5, user: 'u', temperature: undefined }],
  ])('%s: the same JSON as the SDK', (_what, body) => {
    expect(mistralBodyJson(body)).toBe(sdkJson(body));
  });

  it.each<[string, Record<string, unknown>]>([
    ['tools', { model: 'm', messages, tools: [] }],
    ['metadata', { model: 'm', messages, metadata: { a: 1 } }],
    ['a message with a name', { model: 'm', messages: [{ role: 'user', content: 'x', name: 'n' }] }],
    ['content chunks', { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }],
    ['a message written content first', { model: 'm', messages: [{ content: 'x', role: 'user' }] }],
    ['a tool message', { model: 'm', messages: [{ role: 'tool', content: 'x' }] }],
    ['a fractional max_tokens (the SDK refuses it)', { model: 'm', messages, maxTokens: 1.5 }],
    ['a string temperature (the SDK refuses it)', { model: 'm', messages, temperature: '0.5' }],
    ['a response format with more fields', { model: 'm', messages, responseFormat: { type: 'json_object', extra: 1 } }],
  ])('%s: left to the SDK', (_what, body) => {
    expect(mistralBodyJson(body)).toBeNull();
  });
});
