import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid and resident memory (bytes) of every process, read from /proc (Linux). */
function snapshot(): Map<number, { ppid: number; rss: number }> {
  const procs = new Map<number, { ppid: number; rss: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(entry), { ppid: Number(rest[1]), rss: Number(rest[21]) * 4096 });
    } catch {
      // The process ended between listing and reading.
    }
  }
  return procs;
}

/**
 * Samples the resident memory of a process tree (the CLI and every agent process it starts) until
 * stopped: the peak of the tree's total and of its largest process. Sampling misses peaks shorter than
 * the interval, so figures are lower bounds, good for the order of magnitude a user needs.
 */
export function watchTreeMemory(rootPid: number, intervalMs = 200): { stop(): { totalMB: number; largestMB: number } } {
  let total = 0;
  let largest = 0;
  const sample = () => {
    const procs = snapshot();
    const tree = new Set([rootPid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, p] of procs) if (!tree.has(pid) && tree.has(p.ppid)) (tree.add(pid), (grew = true));
    }
    let sum = 0;
    for (const pid of tree) {
      const rss = procs.get(pid)?.rss ?? 0;
      sum += rss;
      largest = Math.max(largest, rss);
    }
    total = Math.max(total, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { totalMB: Math.round(total / 2 ** 20), largestMB: Math.round(largest / 2 ** 20) };
    },
  };
}
