import { describe, expect, it } from 'vitest';
import { batchPollMsOf, batchRetryOf } from './batch-flags.js';
import { UsageError } from './command.js';

describe('--batch-retry and --batch-poll', () => {
  it('default to live and 30 s, and are refused when they make no sense', () => {
    expect(batchRetryOf({ batch: true })).toBe('live');
    expect(batchRetryOf({ batch: true, 'batch-retry': 'batch' })).toBe('batch');
    expect(batchPollMsOf({})).toBe(30_000);
    expect(batchPollMsOf({ batch: true, 'batch-poll': 0.05 })).toBe(50);
    expect(() => batchRetryOf({ 'batch-retry': 'batch' })).toThrow(UsageError);
    expect(() => batchRetryOf({ batch: true, 'batch-retry': 'later' })).toThrow(/live or batch/);
    expect(() => batchPollMsOf({ batch: true, 'batch-poll': -1 })).toThrow(/positive number/);
    expect(() => batchPollMsOf({ 'batch-poll': 5 })).toThrow('--batch-poll needs --batch');
  });
});
