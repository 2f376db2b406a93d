/**
 * Time as the orchestrator sees it. Injected everywhere a deadline, TTL or heartbeat is measured so
 * tests drive time with `FakeClock` instead of sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Opaque timer handle (a Node timer for the system clock, a number for the fake one). */
export type TimerHandle = unknown;

/** The real clock. Timers are unref'd: a pending deadline alone never keeps the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return t;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
