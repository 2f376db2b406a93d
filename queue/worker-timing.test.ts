import { describe, expect, it } from 'vitest';
import { LOCK_MS_ENV, STOP_MS_ENV, workerTiming } from './worker-timing.js';

describe('workerTiming', () => {
  it('defaults to a 5 s stop and a 30 s lock, unset or empty', () => {
    expect(workerTiming({})).toEqual({ stopMs: 5_000, lockMs: 30_000 });
    expect(workerTiming({ [STOP_MS_ENV]: '', [LOCK_MS_ENV]: ' ' })).toEqual({ stopMs: 5_000, lockMs: 30_000 });
  });

  it('takes whole numbers in range, the bounds included', () => {
    expect(workerTiming({ [STOP_MS_ENV]: '0', [LOCK_MS_ENV]: '3000' })).toEqual({ stopMs: 0, lockMs: 3_000 });
    expect(workerTiming({ [STOP_MS_ENV]: ' 9000 ', [LOCK_MS_ENV]: '3600000' })).toEqual({ stopMs: 9_000, lockMs: 3_600_000 });
  });

  it('refuses anything else, naming the variable', () => {
    for (const [name, raw] of [
      [STOP_MS_ENV, 'abc'], [STOP_MS_ENV, '9001'], [STOP_MS_ENV, '-1'], [STOP_MS_ENV, '1.5'], [STOP_MS_ENV, '5s'],
      [LOCK_MS_ENV, '999'], [LOCK_MS_ENV, '3600001'], [LOCK_MS_ENV, '0x10'], [LOCK_MS_ENV, '1e4'],
    ] as const) {
      expect(() => workerTiming({ [name]: raw }), `${name}=${raw}`).toThrow(`${name}: expected a whole number of milliseconds from `);
    }
  });
});
