import { describe, expect, it } from 'vitest';
import { workerDecidedLine } from './worker-decided-settings.js';

describe('workerDecidedLine', () => {
  it('says nothing for the defaults (nothing was given)', () => {
    expect(workerDecidedLine({ concurrency: 4, pool: { multiplex: false, seatsPerProcess: 1 } })).toBeNull();
  });

  it("names an experiment file's concurrency and pool as not applied", () => {
    expect(workerDecidedLine({ concurrency: 8, pool: { multiplex: false, seatsPerProcess: 1 } })).toMatch(/^concurrency: 8: not applied with --queue \(each worker decides/);
    expect(workerDecidedLine({ concurrency: 4, pool: { multiplex: true, seatsPerProcess: 16 } })).toMatch(/^pool: \{"multiplex":true,"seatsPerProcess":16\}: not applied/);
  });
});
