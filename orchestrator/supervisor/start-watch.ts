import { readdirSync, readFileSync } from 'node:fs';

/**
 * When a starting agent process is given up on. A wall-clock deadline alone failed every run on a busy
 * machine: agent processes run at nice 19 (worker-niceness.ts), so next to other work at nice 0 (load 10–70
 * on two cores: other runs, a test suite, a build) one gets well under 1 % of a core, and its ~0.2–0.9 s of
 * CPU to `ready` takes minutes of wall time. It was killed at 30 s, its replacement too, the pool blamed
 * the start-up snapshot, then failed the run ("agent processes keep failing to start"), though every
 * process was starting. A process is hung, not slow, when it has used no CPU for a whole `windowMs` (it
 * waits on something that will not come) or has used `cpuBudgetMs` of CPU (it spins); while it keeps
 * using CPU below the budget it is starting, however slowly the machine lets it.
 */
export interface StartWatchOptions {
  /** How long a starting process may use no CPU at all. */
  windowMs: number;
  /** How much CPU a start may take (about a hundred times what one takes). */
  cpuBudgetMs: number;
  /** Called once, with why, when the process is to be given up on. */
  onHung: (why: string) => void;
  /** The process's CPU time so far, ms, or null where that cannot be read (then the window is a plain deadline). */
  cpuMs?: (pid: number) => number | null;
  /** Injected for tests (default: the global timers). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * A reader of the CPU time a live process has used so far, ms: its threads' run time (Linux /proc, ns), or
 * null where that cannot be read (elsewhere, or the process is gone). A thread that exits between the listing
 * and its read, or between two reads, keeps counting at its last reading: the sum never goes down, so a
 * process whose helper thread ended is not taken for one that used no CPU. One reader a watched process.
 */
export function processCpuReader(): (pid: number) => number | null {
  const lastByThread = new Map<string, number>();
  return (pid) => {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      return null;
    }
    for (const task of tasks) {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
        if (Number.isFinite(ns)) lastByThread.set(task, ns);
      } catch {
        // The thread exited since the listing: its last reading stands.
      }
    }
    let ns = 0;
    for (const v of lastByThread.values()) ns += v;
    return ns / 1e6;
  };
}

/** Watches process `pid` until `stop()` (it is ready, or gone); calls `onHung` if it stops starting. */
export function watchStart(pid: number, o: StartWatchOptions): { stop(): void } {
  const cpuMs = o.cpuMs ?? processCpuReader();
  const setTimer = o.setTimer ?? setTimeout;
  const clearTimer = o.clearTimer ?? ((t: unknown) => clearTimeout(t as NodeJS.Timeout));
  let last = cpuMs(pid) ?? 0;
  let elapsed = 0;
  let timer: unknown;
  const check = () => {
    elapsed += o.windowMs;
    const now = cpuMs(pid);
    if (now === null) return o.onHung(`not ready within ${elapsed} ms`);
    if (now >= o.cpuBudgetMs) return o.onHung(`not ready after ${Math.round(now)} ms of CPU (${elapsed} ms)`);
    if (now <= last) return o.onHung(`not ready within ${elapsed} ms, no CPU used in the last ${o.windowMs} ms`);
    last = now;
    timer = setTimer(check, o.windowMs);
  };
  timer = setTimer(check, o.windowMs);
  return { stop: () => clearTimer(timer) };
}
