import { describe, expect, it } from 'vitest';
import { FakeClock } from '../fake-clock.js';
import { ByteBudget } from './byte-budget.js';
import { JoinLimiter } from './join-limiter.js';

describe('join limiter', () => {
  it('makes an address wait after repeated refused joins, doubling the wait for refusals during it; other addresses are untouched', () => {
    const clock = new FakeClock();
    const l = new JoinLimiter(clock, { maxFailures: 3, windowMs: 10_000, backoffMs: 1_000, maxBackoffMs: 4_000 });
    l.failed('10.0.0.1');
    l.failed('10.0.0.1');
    expect(l.waitFor('10.0.0.1')).toBe(0);
    l.failed('10.0.0.1');
    expect(l.waitFor('10.0.0.1')).toBe(1_000);
    expect(l.waitFor('10.0.0.2')).toBe(0);
    l.failed('10.0.0.1');
    expect(l.waitFor('10.0.0.1')).toBe(2_000);
    clock.advance(2_000);
    expect(l.waitFor('10.0.0.1')).toBe(0);
  });

  it('forgets failures older than the window', () => {
    const clock = new FakeClock();
    const l = new JoinLimiter(clock, { maxFailures: 2, windowMs: 1_000 });
    l.failed('a');
    clock.advance(1_000);
    l.failed('a');
    expect(l.waitFor('a')).toBe(0);
  });
});

describe('byte budget', () => {
  it('allows a burst, refills at its rate, and refuses beyond', () => {
    const b = new ByteBudget(0, { burstBytes: 1000, bytesPerSecond: 100 });
    expect(b.spend(900, 0)).toBe(true);
    expect(b.spend(200, 0)).toBe(false);
    const c = new ByteBudget(0, { burstBytes: 1000, bytesPerSecond: 100 });
    expect(c.spend(1000, 0)).toBe(true);
    expect(c.spend(100, 1000)).toBe(true);
    expect(c.spend(1, 1000)).toBe(false);
  });
});
