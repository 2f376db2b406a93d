/**
 * Agent processes run at the orchestrator's priority unless PARLEY_WORKER_NICE says otherwise. They ran at
 * nice 19 so that the orchestrator, which every turn passes through, would go first when the run saturates
 * the machine; measured, that gained nothing, and it cost a run every time other work was on the machine,
 * where an agent process at nice 19 gets ~1.5 % of the CPU weight of each process at nice 0 (2026-11-28,
 * 2 cores, fake model answering after 200 ms, pairs interleaved):
 * - a 4-episode LLM run (8 processes) beside 3 busy processes at nice 0: 4.7-5.2 s at nice 0, 41-43 s at
 *   19 (first episode done after 3.3-3.8 s against 30-32 s); nice 5: 6.2-6.9 s, nice 10: 9.7-10.3 s;
 * - the same run with bots: 2.2-2.8 s at nice 0, 35-37 s at 19;
 * - the bench's latency case alone (50 episodes in flight): one seat a process, window efficiency
 *   0.936-0.948 at nice 0 against 0.890-0.913 at 19, whole run 0.52-0.57 against 0.57-0.61; ten seats,
 *   0.968 / 0.84-0.86 against 0.956-0.969 / 0.86-0.87.
 * PARLEY_WORKER_NICE=19 still lets a run's agent processes yield to everything else on the machine.
 */
export const DEFAULT_WORKER_NICENESS = 0;

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
