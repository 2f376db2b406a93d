/**
 * Agent processes run at the lowest CPU priority unless PARLEY_WORKER_NICE says otherwise: the orchestrator
 * is the one process every turn of every episode passes through, so under load it goes first (its time per
 * turn stays flat); agent processes mostly wait on their LLM anyway. The price: next to other work at nice 0
 * on the machine they get ~1.5 % of its CPU weight each, and start and play that much slower (the pool waits
 * for a slow start, start-watch.ts).
 *
 * Measured both ways (2026-11-28, 2 cores, idle): at nice 0 the bench's 1,000 multiplexed episodes (2,000
 * seats, 50 a process) failed 367 of 3,000 episodes: 1,806 seats' opening handshakes timed out while 41
 * agent processes and the orchestrator shared the CPU alike; at 19, 0 of 3,000 and one lost connection.
 * Beside 3 busy processes at nice 0, a 4-episode LLM run took 41-43 s at 19 against 4.7-5.2 s at 0: a
 * shared machine is PARLEY_WORKER_NICE=0's case (the test suite sets it).
 */
export const DEFAULT_WORKER_NICENESS = 19;

/**
 * The nice increment of agent processes over the orchestrator: PARLEY_WORKER_NICE, a whole number 0–19
 * (unset or empty: DEFAULT_WORKER_NICENESS). Anything else is refused, not taken as some other priority:
 * `Number()` made `abc` NaN and the pool skipped NaN, so the processes ran at nice 0 instead of 19; a
 * negative one needs privileges the pool lacks and was dropped without a word (worker-pool.ts).
 */
export function workerNiceness(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PARLEY_WORKER_NICE?.trim();
  if (raw === undefined || raw === '') return DEFAULT_WORKER_NICENESS;
  if (!/^\d{1,2}$/.test(raw) || Number(raw) > 19) {
    throw new Error(`PARLEY_WORKER_NICE: expected a whole number from 0 (the orchestrator's priority) to 19 (the lowest), got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return Number(raw);
}
