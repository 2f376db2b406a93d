import { describe, expect, it } from 'vitest';
import { PendingConnections } from './pending-connections.js';

const conns = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('pending connections (issue 19, k02)', () => {
  it('refuses a newcomer over the per-address or total limit, and counts a released one no more', () => {
    const p = new PendingConnections({ perAddress: 2, total: 3 });
    const [a, b, c, d, e] = conns(5);
    expect(p.admit(a!, 'x')).toBeNull();
    expect(p.admit(b!, 'x')).toBeNull();
    expect(p.admit(c!, 'x')).toMatch(/2 connections from this address/);
    expect(p.admit(c!, 'y')).toBeNull();
    expect(p.admit(d!, 'z')).toMatch(/3 connections have not joined/);
    expect(p.size).toBe(3);
    p.release(a!);
    p.release(a!);
    expect(p.size).toBe(2);
    expect(p.admit(e!, 'x')).toBeNull();
  });

  it('over a limit, gives up the oldest of the same address, or the oldest of all', () => {
    const p = new PendingConnections({ perAddress: 2, total: 3 });
    const [a, b, c, d, e] = conns(5);
    expect(p.admitEvicting(a!, 'x')).toEqual([]);
    expect(p.admitEvicting(b!, 'y')).toEqual([]);
    expect(p.admitEvicting(c!, 'x')).toEqual([]);
    // x is at its limit: its oldest (a) goes, not y's older b.
    expect(p.admitEvicting(d!, 'x')).toEqual([a]);
    // All 3 held: the oldest of all (b) goes.
    expect(p.admitEvicting(e!, 'z')).toEqual([b]);
    expect(p.size).toBe(3);
    // Those given up are released: releasing them again changes nothing.
    p.release(a!);
    expect(p.size).toBe(3);
  });

  it('reports refusals at most once per interval, with how many there were', () => {
    const p = new PendingConnections({ perAddress: 1, total: 10 });
    p.admit({}, 'x');
    for (let i = 0; i < 5; i++) p.admit({}, 'x');
    expect(p.takeRefusalReport(0)).toBe(5);
    p.admit({}, 'x');
    expect(p.takeRefusalReport(500)).toBeNull();
    p.admit({}, 'x');
    expect(p.takeRefusalReport(1000)).toBe(2);
    expect(p.takeRefusalReport(5000)).toBeNull();
  });
});
