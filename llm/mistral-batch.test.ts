import { describe, expect, it } from 'vitest';
import { LlmError } from './errors.js';
import { mistralBatchApi, mistralJobState } from './mistral-batch.js';

describe('Mistral batch jobs', () => {
  it('read a job onto the Batch API states and counts, and refuse an unknown status', () => {
    const job = { id: 'j1', status: 'RUNNING', outputFile: null, errorFile: null, totalRequests: 6, succeededRequests: 2, failedRequests: 1 };
    expect(mistralJobState(job)).toEqual({ id: 'j1', status: 'in_progress', counts: { total: 6, completed: 2, failed: 1 }, outputFileId: null, errorFileId: null });
    expect(mistralJobState({ ...job, status: 'TIMEOUT_EXCEEDED', outputFile: 'f2' }).status).toBe('expired');
    expect(() => mistralJobState({ ...job, status: 'EXPLODED' })).toThrow(LlmError);
  });

  it('write input lines as custom_id and body, without the model (the job names it), seed as random_seed', () => {
    const api = mistralBatchApi({ apiKey: 'x', baseURL: undefined, timeoutMs: 1000, model: 'mistral-large-latest', sampling: { seed: 7 }, structured: 'json_object' });
    const line = JSON.parse(api.requestLine('e#0', { messages: [{ role: 'user', content: 'hi' }], json: { name: 's', schema: {} }, temperature: 0 }));
    expect(line).toEqual({ custom_id: 'e#0', body: { random_seed: 7, temperature: 0, messages: [{ role: 'user', content: 'hi' }], response_format: { type: 'json_object' } } });
  });
});
