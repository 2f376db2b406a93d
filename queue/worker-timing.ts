/**
 * A queue worker's two timing settings, from the environment. Each is a whole number of milliseconds in a
 * range, or refused naming the variable (read once, before the worker connects): `Number()` of a typo was
 * NaN, which BullMQ took as a lock and `setTimeout` as "at once", and an empty value was 0.
 */
export interface WorkerTiming {
  /** How long a graceful stop finishes the episodes in hand before abandoning them. */
  stopMs: number;
  /** BullMQ's job lock and stalled-job check: how long a killed worker's episodes wait to run elsewhere. */
  lockMs: number;
}

export const STOP_MS_ENV = 'PARLEY_WORKER_STOP_MS';
export const LOCK_MS_ENV = 'PARLEY_QUEUE_LOCK_MS';

const SETTINGS = [
  // Up to 9 s: `parley worker` exits 9.5 s after the first signal whatever is left (its "gone within 10 s"
  // promise), so a longer stop would never be waited for.
  { field: 'stopMs', name: STOP_MS_ENV, fallback: 5_000, min: 0, max: 9_000 },
  // At least 1 s: BullMQ renews a lock every half lock, a round trip to Redis each; at most an hour, as long
  // as a killed worker's episodes may wait before another worker runs them.
  { field: 'lockMs', name: LOCK_MS_ENV, fallback: 30_000, min: 1_000, max: 3_600_000 },
] as const;

/** The worker's timing from `env`; throws naming the variable when a value is not a whole number in its range. */
export function workerTiming(env: NodeJS.ProcessEnv = process.env): WorkerTiming {
  const timing: WorkerTiming = { stopMs: 0, lockMs: 0 };
  for (const s of SETTINGS) {
    const raw = env[s.name]?.trim();
    if (raw === undefined || raw === '') {
      timing[s.field] = s.fallback;
      continue;
    }
    if (!/^\d{1,8}$/.test(raw) || Number(raw) < s.min || Number(raw) > s.max) {
      throw new Error(`${s.name}: expected a whole number of milliseconds from ${s.min} to ${s.max}, got ${JSON.stringify(raw.slice(0, 40))}`);
    }
    timing[s.field] = Number(raw);
  }
  return timing;
}
