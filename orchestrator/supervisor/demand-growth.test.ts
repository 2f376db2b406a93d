import { describe, expect, it } from 'vitest';
import { FakeClock } from '../fake-clock.js';
import { DemandGrowth } from './demand-growth.js';

/** A pool of `live` workers, `starting` of them not ready, whose fill counts its calls. */
function pool(live = 2, starting = 0) {
  const p = { live, starting, fills: 0 };
  return { p, hooks: { live: () => p.live, starting: () => p.starting, fill: () => (p.fills += 1) } };
}

describe('DemandGrowth (a bot pool grows past its first wave only for seats that waited as long as a start takes)', () => {
  it('keeps the first wave while no worker is ready: every seat waits for it anyway', () => {
    const clock = new FakeClock();
    const { p, hooks } = pool(2, 2);
    const g = new DemandGrowth(2, hooks, clock);
    g.wait();
    g.wait();
    clock.advance(60_000);
    expect(g.overdue()).toBe(0);
    expect(g.kept).toBe(2);
    expect(p.fills).toBe(0);
  });

  it('starts nothing for a seat that gets a worker before a start would have finished', () => {
    const clock = new FakeClock();
    const { p, hooks } = pool(2);
    const g = new DemandGrowth(2, hooks, clock);
    const seat = g.wait();
    clock.advance(800);
    g.started(800); // the first wave is ready after 800 ms: the seat waits from now on
    clock.advance(799);
    g.done(seat); // a worker freed (its episode ended) just in time
    clock.advance(10_000);
    expect(g.kept).toBe(2);
    expect(p.fills).toBe(0);
  });

  it('keeps one more worker per seat that has waited as long as the last start took, less those starting', () => {
    const clock = new FakeClock();
    const { p, hooks } = pool(2);
    const g = new DemandGrowth(2, hooks, clock);
    g.wait();
    g.wait();
    g.started(500);
    clock.advance(499);
    expect(g.kept).toBe(2);
    clock.advance(1);
    expect(g.overdue()).toBe(2);
    expect(g.kept).toBe(4);
    expect(p.fills).toBe(1);
    // Both covered by the two workers now starting: a later seat due then adds only itself.
    p.live = 4;
    p.starting = 2;
    g.wait();
    clock.advance(500);
    expect(g.overdue()).toBe(3);
    expect(g.kept).toBe(5);
    expect(p.fills).toBe(2);
  });

  it('counts an overdue seat again once the worker starting for it is gone (taken by another seat, or dead)', () => {
    const clock = new FakeClock();
    const { p, hooks } = pool(2);
    const g = new DemandGrowth(2, hooks, clock);
    g.wait();
    g.started(100);
    p.starting = 1; // a replacement already starting covers the seat when it falls due
    clock.advance(100);
    expect(g.kept).toBe(2);
    p.starting = 0; // … and went to another seat
    expect(g.raise()).toBe(true);
    expect(g.kept).toBe(3);
  });

  it('never keeps fewer workers than before, and stops its timer', () => {
    const clock = new FakeClock();
    const { hooks } = pool(2);
    const g = new DemandGrowth(2, hooks, clock);
    const seat = g.wait();
    g.started(100);
    clock.advance(100);
    expect(g.kept).toBe(3);
    g.done(seat);
    clock.advance(1_000);
    expect(g.kept).toBe(3);
    g.wait();
    g.stop();
    expect(clock.pending).toBe(0);
  });
});
