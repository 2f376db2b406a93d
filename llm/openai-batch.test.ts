import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import { batchChatBody, stateOf } from './openai-batch.js';
import type { ChatRequest } from './types.js';

const req: ChatRequest = { messages: [{ role: 'user', content: 'Score this.' }], json: { name: 'sotopia_eval', schema: { type: 'object' } }, temperature: 0 };

describe('batchChatBody', () => {
  it('writes the request as the live client would on the configured rung', () => {
    expect(batchChatBody('gpt-4', { seed: 1 }, req, 'json_schema')).toEqual({
      seed: 1,
      temperature: 0,
      model: 'gpt-4',
      messages: req.messages,
      response_format: { type: 'json_schema', json_schema: { name: 'sotopia_eval', schema: { type: 'object' }, strict: true } },
    });
    expect(batchChatBody('gpt-4', {}, req, 'json_object')['response_format']).toEqual({ type: 'json_object' });
  });

  it('on the prompt rung, puts the schema in the prompt and sends no response_format', () => {
    const body = batchChatBody('gpt-4-0613', {}, req, 'prompt');
    expect(body['response_format']).toBeUndefined();
    const messages = body['messages'] as Array<{ content: string }>;
    expect(messages).toHaveLength(2);
    expect(messages[1]!.content).toContain('"sotopia_eval"');
  });
});

describe('stateOf', () => {
  it('reads a batch object, and refuses one that is not', () => {
    expect(stateOf({ id: 'batch_1', status: 'completed', output_file_id: 'file-2', error_file_id: null, request_counts: { total: 3, completed: 3, failed: 0 } })).toEqual({
      id: 'batch_1',
      status: 'completed',
      counts: { total: 3, completed: 3, failed: 0 },
      outputFileId: 'file-2',
      errorFileId: null,
    });
    expect(() => stateOf({ id: 'batch_1', status: 'done' })).toThrow(LlmError);
    expect(() => stateOf(null)).toThrow(LlmError);
  });
});
