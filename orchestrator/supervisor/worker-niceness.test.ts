import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKER_NICENESS, workerNiceness } from './worker-niceness.js';

describe('workerNiceness (PARLEY_WORKER_NICE: takes effect or is refused)', () => {
  it('is the default when unset or empty', () => {
    expect(workerNiceness({})).toBe(DEFAULT_WORKER_NICENESS);
    expect(workerNiceness({ PARLEY_WORKER_NICE: ' ' })).toBe(DEFAULT_WORKER_NICENESS);
  });

  it('takes a whole number from 0 to 19', () => {
    expect(workerNiceness({ PARLEY_WORKER_NICE: '0' })).toBe(0);
    expect(workerNiceness({ PARLEY_WORKER_NICE: ' 7 ' })).toBe(7);
    expect(workerNiceness({ PARLEY_WORKER_NICE: '19' })).toBe(19);
  });

  it.each(['abc', '-5', '20', '1.5', '0x10', '1e1', '100'])('refuses %j, naming the variable', (value) => {
    expect(() => workerNiceness({ PARLEY_WORKER_NICE: value })).toThrow(/^PARLEY_WORKER_NICE: expected a whole number/);
  });
});
