import { describe, expect, it } from 'vitest';
import { stateOf } from '../../llm/openai-batch.js';
import { mistralJobState } from '../../llm/mistral-batch.js';
import { EvalBatch } from '../../run-dir/eval-batches.js';
import { CompareBatch } from '../../run-dir/compare-batches.js';

/**
 * `eval --batch` and `compare --batch` take ids from the provider (a file, a batch, a job) and send them
 * back in request paths, write them into run.json or `<verdicts>.batch.json`, and print them. A hostile
 * or broken OpenAI-compatible server must not be able to make Parley call another path, print a
 * terminal escape or forge a line; nor may a tampered record file do it on the next collect.
 */
const HOSTILE = ['../../v1/files/file-x/content', 'batch_1/../../admin', 'batch_1\u001b[2J', 'batch_1\nparley: done', 'batch 1', '', 'x'.repeat(201), '%2e%2e%2fadmin'];

describe('provider ids at the edge (eval --batch, compare --batch)', () => {
  const batch = (id: string, more: Record<string, unknown> = {}) => ({ id, status: 'in_progress', request_counts: { total: 1, completed: 0, failed: 0 }, ...more });

  it('an OpenAI-compatible batch object with a hostile id, output or error file id is refused', () => {
    expect(stateOf(batch('batch_abc-123', { output_file_id: 'file-XYZ.1' })).id).toBe('batch_abc-123');
    for (const id of HOSTILE) {
      expect(() => stateOf(batch(id)), JSON.stringify(id)).toThrow(/unreadable batch object/);
      if (id !== '') {
        expect(() => stateOf(batch('batch_ok', { output_file_id: id })), JSON.stringify(id)).toThrow(/unreadable batch object/);
        expect(() => stateOf(batch('batch_ok', { error_file_id: id })), JSON.stringify(id)).toThrow(/unreadable batch object/);
      }
    }
  });

  it('a Mistral batch job with a hostile id or file is refused', () => {
    const job = (id: string, outputFile?: string) => ({ id, status: 'RUNNING', totalRequests: 1, succeededRequests: 0, failedRequests: 0, ...(outputFile ? { outputFile } : {}) });
    expect(mistralJobState(job('3f0c2a4e-8a1b-4c1e-9d2f-0a1b2c3d4e5f')).status).toBe('in_progress');
    for (const id of HOSTILE) {
      expect(() => mistralJobState(job(id)), JSON.stringify(id)).toThrow(/unreadable batch job/);
      if (id !== '') expect(() => mistralJobState(job('3f0c2a4e', id)), JSON.stringify(id)).toThrow(/unreadable batch job/);
    }
  });

  it('a tampered record (run.json evalBatches, <verdicts>.batch.json) cannot carry a hostile id into the next collect', () => {
    for (const id of HOSTILE) {
      expect(EvalBatch.shape.id.safeParse(id).success, JSON.stringify(id)).toBe(false);
      expect(EvalBatch.shape.inputFileId.safeParse(id).success, JSON.stringify(id)).toBe(false);
      expect(CompareBatch.shape.id.safeParse(id).success, JSON.stringify(id)).toBe(false);
      expect(CompareBatch.shape.inputFileId.safeParse(id).success, JSON.stringify(id)).toBe(false);
    }
    expect(EvalBatch.shape.id.safeParse(null).success).toBe(true);
    expect(CompareBatch.shape.inputFileId.safeParse('file-abc123').success).toBe(true);
  });
});
