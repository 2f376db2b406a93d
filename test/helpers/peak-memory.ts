import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid and resident memory (bytes) of a process from /proc/PID/stat (Linux); null once it is gone. */
function readStat(pid: number): { ppid: number; rss: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), rss: Number(rest[21]) * 4096 };
  } catch {
    return null;
  }
}

/** Parent pid and resident memory of every process on the machine. */
function everyProcess(): Map<number, { ppid: number; rss: number }> {
  const procs = new Map<number, { ppid: number; rss: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = readStat(Number(entry));
    if (p) procs.set(Number(entry), p);
  }
  return procs;
}

/**
 * The tree under `rootPid` (pid → resident bytes), found through each process's main-thread
 * `/proc/PID/task/PID/children` (Node starts its children from the main thread): a few reads per process
 * of the tree, where scanning every process of a busy machine every 200 ms cost ~4% of a core. Null when
 * the kernel does not offer the children files; the caller then scans every process.
 */
function treeByChildren(rootPid: number): Map<number, number> | null {
  const tree = new Map<number, number>();
  const walk = (pid: number): boolean => {
    let children: string;
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
    } catch {
      // A process gone meanwhile has no tree; a live root without the file means a kernel without them.
      return pid !== rootPid || readStat(pid) === null;
    }
    const rss = readStat(pid)?.rss;
    if (rss !== undefined) tree.set(pid, rss);
    for (const c of children.trim().split(/\s+/).filter(Boolean)) walk(Number(c));
    return true;
  };
  return walk(rootPid) ? tree : null;
}

/** The tree under `rootPid` (pid → resident bytes) from a scan of every process. */
function treeByScan(rootPid: number): Map<number, number> {
  const procs = everyProcess();
  const tree = new Set([rootPid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, p] of procs) if (!tree.has(pid) && tree.has(p.ppid)) (tree.add(pid), (grew = true));
  }
  return new Map([...tree].map((pid) => [pid, procs.get(pid)?.rss ?? 0]));
}

/**
 * Samples the resident memory of a process tree (the CLI and every agent process it starts) until
 * stopped: the peak of the tree's total and of its largest process. Sampling misses peaks shorter than
 * the interval, so figures are lower bounds, good for the order of magnitude a user needs. Every 500 ms:
 * every 200 ms, sampling a 9-process tree cost the test process ~5 ms of CPU a second (~1 ms at 500 ms),
 * 1-2 s over paper-scale's steps, for peaks that its commands (10-100 s each) reach and hold for seconds.
 */
export function watchTreeMemory(rootPid: number, intervalMs = 500): { stop(): { totalMB: number; largestMB: number } } {
  let total = 0;
  let largest = 0;
  let byChildren = true;
  const sample = () => {
    let tree = byChildren ? treeByChildren(rootPid) : null;
    if (!tree) {
      byChildren = false;
      tree = treeByScan(rootPid);
    }
    let sum = 0;
    for (const rss of tree.values()) {
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
