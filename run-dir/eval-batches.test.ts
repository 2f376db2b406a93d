import { describe, expect, it } from 'vitest';
import { EvalBatch, sameJudging } from './eval-batches.js';

const entry = {
  id: 'batch_1',
  judge: 'openai:gpt-4',
  rubricHash: 'h',
  visibility: 'full',
  view: 'parley',
  structured: 'json_schema',
  inputFileId: 'file-1',
  requests: 3,
  episodes: ['e1', 'e2', 'e3'],
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'in_progress',
  counts: { total: 3, completed: 1, failed: 0 },
};

describe('run.json evalBatches', () => {
  it('reads an entry (round 0 when absent) and refuses one whose fields are not what eval --batch writes', () => {
    expect(EvalBatch.parse(entry).round).toBe(0);
    expect(EvalBatch.parse({ ...entry, id: null }).id).toBeNull();
    expect(EvalBatch.safeParse({ ...entry, id: 7 }).success).toBe(false);
    expect(EvalBatch.safeParse({ ...entry, view: 'other' }).success).toBe(false);
    expect(EvalBatch.safeParse({ ...entry, counts: { total: -1, completed: 0, failed: 0 } }).success).toBe(false);
  });

  it('matches a batch to the judging it was made for: judge, rubric, visibility and view', () => {
    const b = EvalBatch.parse(entry);
    const key = { judge: 'openai:gpt-4', rubricHash: 'h', visibility: 'full', view: 'parley' } as const;
    expect(sameJudging(b, key)).toBe(true);
    expect(sameJudging(b, { ...key, rubricHash: 'other' })).toBe(false);
    expect(sameJudging(b, { ...key, visibility: 'blind' })).toBe(false);
    expect(sameJudging(b, { ...key, judge: 'openai:gpt-4o' })).toBe(false);
  });
});
