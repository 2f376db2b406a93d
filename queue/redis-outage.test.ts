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

  it('answered() says at once that an outage is over, and nothing when there is none', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const o = new RedisOutage('coordinator', 'redis://h:1', (l) => lines.push(l), 2_000);
      o.answered(); // no outage: nothing to say
      o.error(new Error('connect ECONNREFUSED'));
      expect(lines).toHaveLength(1);
      o.ready();
      vi.advanceTimersByTime(500);
      o.answered(); // answered within the settle time: said now, once
      vi.advanceTimersByTime(5_000);
      o.answered(); // over already: nothing more
      expect(lines).toEqual(['coordinator: Redis at redis://h:1 is unreachable (connect ECONNREFUSED); retrying with backoff', 'coordinator: Redis at redis://h:1 is back; carrying on']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an error after the last ready leaves no timer: the next answer says the outage is over', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const o = new RedisOutage('worker', 'redis://h:1', (l) => lines.push(l), 2_000);
      o.error(new Error('connect ECONNREFUSED'));
      o.ready();
      o.error(new Error('connect ECONNREFUSED')); // a connection that comes back later without 'ready'
      vi.advanceTimersByTime(10_000);
      expect(lines).toHaveLength(1); // nothing proves it is back yet
      o.answered(); // a job completed through Redis
      expect(lines).toEqual(['worker: Redis at redis://h:1 is unreachable (connect ECONNREFUSED); retrying with backoff', 'worker: Redis at redis://h:1 is back; carrying on']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('other errors are no outage: printed as they are', () => {
    const lines: string[] = [];
    const o = new RedisOutage('worker', 'redis://h:1', (l) => lines.push(l));
    o.error(new Error('could not renew lock for job x'));
    o.error(new Error('connect ECONNREFUSED 127.0.0.1:1'));
    o.error(new Error('connect ECONNREFUSED 127.0.0.1:1'));
    expect(lines).toEqual(['worker: queue: could not renew lock for job x', 'worker: Redis at redis://h:1 is unreachable (connect ECONNREFUSED 127.0.0.1:1); retrying with backoff']);
  });
});
