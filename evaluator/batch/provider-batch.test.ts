import { describe, expect, it } from 'vitest';
import type { BatchApi, BatchState } from '../../llm/openai-batch.js';
import { batchProgressLine, pollBatch } from './provider-batch.js';

/** The wait both `eval --batch` and `compare --batch` share, against an in-memory batch API. */
function apiReturning(states: Array<Partial<BatchState>>): BatchApi & { reads: number } {
  const api = {
    reads: 0,
    requestLine: () => '',
    upload: async () => 'file-1',
    create: async () => ({ ...full(states[0]!) }),
    retrieve: async () => full(states[Math.min(api.reads++, states.length - 1)]!),
    content: async () => '',
  };
  return api;
}
const full = (s: Partial<BatchState>): BatchState => ({ id: 'batch_1', status: 'in_progress', counts: { total: 3, completed: 0, failed: 0 }, outputFileId: null, errorFileId: null, ...s });

describe('pollBatch', () => {
  it('prints a line only when the status or counts change, and returns the final state', async () => {
    const api = apiReturning([{ status: 'validating' }, {}, {}, { counts: { total: 3, completed: 2, failed: 0 } }, { status: 'completed', counts: { total: 3, completed: 3, failed: 0 }, outputFileId: 'file-2' }]);
    const lines: string[] = [];
    const changes: string[] = [];
    const state = await pollBatch(api, 'batch_1', { spec: 'openai:gpt-4', pollMs: 1, signal: new AbortController().signal, log: (l) => lines.push(l), onChange: (s) => changes.push(s.status) });
    expect(state?.outputFileId).toBe('file-2');
    expect(api.reads).toBe(5);
    expect(lines).toEqual([
      'batch batch_1 (openai:gpt-4): validating · 0/3 requests done · 0 failed',
      'batch batch_1 (openai:gpt-4): in_progress · 0/3 requests done · 0 failed',
      'batch batch_1 (openai:gpt-4): in_progress · 2/3 requests done · 0 failed',
      'batch batch_1 (openai:gpt-4): completed · 3/3 requests done · 0 failed',
    ]);
    expect(changes).toEqual(['validating', 'in_progress', 'in_progress', 'completed']);
  });

  it('stops on the signal while the batch is pending, saying the same command collects it', async () => {
    const controller = new AbortController();
    const lines: string[] = [];
    const api = apiReturning([{}]);
    const polled = pollBatch(api, 'batch_1', { spec: 'openai:gpt-4', pollMs: 60_000, signal: controller.signal, log: (l) => { lines.push(l); if (lines.length === 1) controller.abort(); } });
    expect(await polled).toBeNull();
    expect(lines.at(-1)).toBe('batch batch_1 is still in_progress; run the same command again to collect it (no second batch is submitted)');
  });

  it('makes ids and specs from the provider safe to print', () => {
    expect(batchProgressLine('openai:gpt-4', { id: 'batch\u001b[2J\nfake', status: 'completed', counts: { total: 1, completed: 1, failed: 0 } })).not.toMatch(/[\u0000-\u001f]/);
  });
});
