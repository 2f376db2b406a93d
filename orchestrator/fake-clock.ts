import type { Clock, TimerHandle } from './clock.js';

interface Pending {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A simulated clock for tests: time moves only when `advance()` is called, and due timers fire in
 * deadline order. Lets the engine's per-turn deadline be tested without waiting.
 */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: Pending[] = [];

  constructor(start = 1_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Number of timers waiting to fire (tests use it to know the engine is blocked on a deadline). */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t.id !== due.id);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }
}
