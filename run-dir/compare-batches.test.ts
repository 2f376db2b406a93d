import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareBatchesFile, compareBatchesText, readCompareBatches, sameComparison, type CompareBatch } from './compare-batches.js';
import { compareVerdictsName, listCompareVerdicts } from './compare-verdicts.js';
import { tempRunPaths } from './testing/temp-paths.js';

const key = { judge: 'openai:gpt-4', question: 'parley' as const, seed: 1, runA: '/r/a', runB: '/r/b', modeA: 'script', modeB: 'agents' };
const entry: CompareBatch = {
  ...key,
  id: 'batch_1',
  structured: 'json_schema',
  inputFileId: 'file-1',
  customIds: ['s/p/0#0123456789abcdef'],
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'in_progress',
  counts: { total: 1, completed: 0, failed: 0 },
  round: 0,
};

describe("compare --batch's record beside the verdicts file", () => {
  const dirs = tempRunPaths('compare-batches');

  it('is named after the verdicts file and is never taken for a verdicts file by report or compare --human', () => {
    const p = dirs();
    const verdicts = join(p.dir, compareVerdictsName('script', 'agents'));
    expect(compareBatchesFile(verdicts)).toBe(`${verdicts}.batch.json`);
    writeFileSync(verdicts, '');
    writeFileSync(compareBatchesFile(verdicts), compareBatchesText([entry]));
    expect(listCompareVerdicts(p.dir).map((f) => f.file)).toEqual([verdicts]);
  });

  it('reads back what it wrote; an absent file is no batch; a file of another shape is refused, naming it', () => {
    const p = dirs();
    const file = join(p.dir, 'x.jsonl.batch.json');
    expect(readCompareBatches(file)).toEqual({ ok: true, batches: [] });
    writeFileSync(file, compareBatchesText([entry, { ...entry, id: null, inputFileId: 'file-2', round: 1, collectedAt: '2026-01-02T00:00:00.000Z' }]));
    const read = readCompareBatches(file);
    expect(read.ok && read.batches.map((b) => [b.id, b.round, b.collectedAt ?? null])).toEqual([['batch_1', 0, null], [null, 1, '2026-01-02T00:00:00.000Z']]);
    for (const bad of ['{', JSON.stringify({ v: 2, batches: [] }), JSON.stringify({ v: 1, batches: [{ ...entry, id: 7 }] }), JSON.stringify({ v: 1, batches: [{ ...entry, question: 'other' }] })]) {
      writeFileSync(file, bad);
      const r = readCompareBatches(file);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toContain(file);
    }
  });

  it('finds a batch by every part of the comparison: runs, modes, judge, question and seed', () => {
    expect(sameComparison(entry, key)).toBe(true);
    for (const [k, v] of Object.entries({ judge: 'openai:gpt-4o', question: 'paper', seed: 2, runA: '/r/c', runB: '/r/c', modeA: 'agents', modeB: 'script' })) {
      expect(sameComparison(entry, { ...key, [k]: v })).toBe(false);
    }
  });
});
