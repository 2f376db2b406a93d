import { terminalSafe } from '../text/terminal.js';

/**
 * The coordinator's lines about what came back from Redis. A job's failure reason, a worker's host and its code
 * version are written by whoever can reach the Redis, so each is made terminal-safe (text/terminal.ts) before it
 * reaches the run's progress output: none of them can drive the terminal or start a line of its own.
 */
export function workerFailedLine(episodeId: string, reason: unknown): string {
  return `episode ${episodeId}: failed on the workers (${terminalSafe(String(reason ?? 'no reason given')).slice(0, 500)}); not recorded, a rerun tries it again`;
}

/** A worker that runs other code than the coordinator (said once a code version). */
export function otherCodeLine(worker: { pid: number; host: string }, theirs: string, ours: string): string {
  return `worker ${worker.pid} on ${terminalSafe(worker.host).slice(0, 255)} runs other code (${terminalSafe(theirs).slice(0, 500)}) than this coordinator (${ours}); run.json records the coordinator's`;
}

/** A result that did not parse: why, from the schema's first issues (their paths hold keys a worker chose). */
export function unreadableResultLine(episodeId: string, why: string): string {
  return `episode ${episodeId}: a worker returned an unreadable result (${terminalSafe(why).slice(0, 500)}); it runs again`;
}
