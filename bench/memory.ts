import { readFileSync } from 'node:fs';

// Built once: the sampler reads every agent process's status five times a second, on the machine measured.
const VM_RSS = /^VmRSS:\s+(\d+)/m;
const VM_HWM = /^VmHWM:\s+(\d+)/m;
const RSS_ANON = /^RssAnon:\s+(\d+)/m;

/**
 * VmRSS and VmHWM (peak RSS) of a process in kB, from /proc (Linux); null when it is gone. `anonKb`
 * (RssAnon) is the private part: RSS also counts the pages of the node binary and shared libraries
 * (~36 MB for Node 20), which every agent process shares with the others and the orchestrator.
 */
export function processMemory(pid: number | 'self'): { rssKb: number; hwmKb: number; anonKb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (pattern: RegExp) => Number(pattern.exec(status)?.[1] ?? 0);
    return { rssKb: field(VM_RSS), hwmKb: field(VM_HWM), anonKb: field(RSS_ANON) };
  } catch {
    return null;
  }
}

/**
 * Samples the memory of a changing set of processes (the agent pool) every `intervalMs`: the peak of
 * their summed RSS at one instant, and each process's own peak (VmHWM, kept from its last sample), whose
 * sum is an upper bound of the former.
 */
export class MemorySampler {
  private peakSumKb = 0;
  private readonly hwm = new Map<number, number>();
  private readonly anon = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly pids: () => readonly number[], private readonly intervalMs = 100) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  /** One sample (also call it right before the processes exit). */
  sample(): void {
    let sum = 0;
    for (const pid of this.pids()) {
      const m = processMemory(pid);
      if (!m) continue;
      sum += m.rssKb;
      this.hwm.set(pid, Math.max(this.hwm.get(pid) ?? 0, m.hwmKb));
      this.anon.set(pid, Math.max(this.anon.get(pid) ?? 0, m.anonKb));
    }
    this.peakSumKb = Math.max(this.peakSumKb, sum);
  }

  stop(): { processes: number; peakSumRssKb: number; sumOfPeaksKb: number; maxPerProcessKb: number; maxPrivatePerProcessKb: number } {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const peaks = [...this.hwm.values()];
    return {
      processes: this.hwm.size,
      peakSumRssKb: this.peakSumKb,
      sumOfPeaksKb: peaks.reduce((a, b) => a + b, 0),
      maxPerProcessKb: peaks.length ? Math.max(...peaks) : 0,
      // Sampled (no kernel high-water mark for it): a lower bound of the private peak.
      maxPrivatePerProcessKb: Math.max(0, ...this.anon.values()),
    };
  }
}

/** Machine-wide CPU time counters (jiffies, all cores) from /proc/stat: busy and total. */
export function systemCpu(): { busy: number; total: number } {
  try {
    const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const n = f.map(Number);
    const idle = (n[3] ?? 0) + (n[4] ?? 0);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (user + system, ms) of this process's direct children (the agent pool), from /proc. */
export function childrenCpuMs(): number {
  let total = 0;
  for (const ms of childrenCpuByPid().values()) total += ms;
  return total;
}

/** CPU time (user + system, ms) of each live direct child of this process, by pid, from /proc. */
export function childrenCpuByPid(): Map<number, number> {
  const byPid = new Map<number, number>();
  let kids: string[] = [];
  try {
    kids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return byPid;
  }
  for (const pid of kids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byPid.set(Number(pid), (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      // exited meanwhile
    }
  }
  return byPid;
}

/**
 * CPU time (user + system, ms) of every child process of this one that has exited and been reaped
 * (cutime + cstime of /proc/self/stat): after a run's pool has closed, all its agent processes, cold
 * start-up included, which sampling live processes would miss for the ones gone between samples.
 */
export function reapedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * TICK_MS;
  } catch {
    return 0;
  }
}
