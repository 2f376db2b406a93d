import { describe, expect, it, vi } from 'vitest';
import { RedisOutage } from './redis-outage.js';

describe('a Redis outage is said once, and its end once', () => {
  it('many errors and reconnecting clients make one pair of lines', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const o = new RedisOutage('worker', 'redis://h:1', (l) => lines.push(l), 2_000);
      o.ready(); // connected at start: nothing to say
      for (let i = 0; i < 50; i++) o.error(new Error('connect ECONNREFUSED'));
      o.ready(); // one client back…
      vi.advanceTimersByTime(500);
      o.error(new Error('connect ECONNREFUSED')); // …another still failing: no new line
      o.ready();
      vi.advanceTimersByTime(2_000);
      expect(lines).toEqual(['worker: Redis at redis://h:1 is unreachable (connect ECONNREFUSED); retrying with backoff', 'worker: Redis at redis://h:1 is back; carrying on']);
    } finally {
      vi.useRealTimers();
    }
  });
});
