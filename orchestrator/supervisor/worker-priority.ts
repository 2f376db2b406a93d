import { getPriority, setPriority } from 'node:os';

/**
 * Sets an agent process's scheduling priority to the orchestrator's plus `increment` (Unix nice, at most
 * 19). Raising a child's nice value is always permitted to its owner; lowering it (the increment smaller
 * than the one the process has) may not be, and then the process keeps the priority it has.
 */
export function reniceWorker(pid: number, increment: number): void {
  try {
    setPriority(pid, Math.min(19, getPriority() + increment));
  } catch {
    // Not permitted here (or the process is gone): it runs at the priority it has.
  }
}
