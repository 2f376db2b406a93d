import { describe, expect, it } from 'vitest';
import { SnapshotEvidence } from './snapshot-evidence.js';

describe('SnapshotEvidence (when a pool stops starting processes from the snapshot)', () => {
  it('blames the blob only after `limit` early deaths in a row, none of its processes ready in between', () => {
    const e = new SnapshotEvidence(3);
    expect([e.diedEarly(), e.diedEarly()]).toEqual([false, false]);
    e.healthy();
    expect([e.diedEarly(), e.diedEarly(), e.count]).toEqual([false, false, 2]);
    expect(e.diedEarly()).toBe(true);
  });

  it('a blob that never starts a process is blamed at the limit, as a first wave from a refused blob needs', () => {
    const e = new SnapshotEvidence(3);
    expect([1, 2, 3, 4].map(() => e.diedEarly())).toEqual([false, false, true, true]);
  });
});
