import { round } from './stats.js';
import { childrenCpuByPid, systemCpu } from './memory.js';

/**
 * The agents' CPU in the window, split by process. `warm`: the processes that had played a turn before the
 * window opened and lived through it, and the turns they played (a turn is shared between its episode's
 * seats' processes) — the steady per-turn figure. `other`: every other process alive in the window (started
 * in it: their start-up and first, cold episodes; or spares that never played) and the turns they played.
 */
export interface AgentCpuSplit {
  warm: { processes: number; cpuMs: number; turns: number };
  other: { processes: number; cpuMs: number; turns: number };
}

/**
 * The measured window of a benchmark case run with `lanes` episodes in flight and `total` episodes
 * (a few times `lanes`): it opens when `warmup` episodes are recorded (by default `lanes`: every lane
 * has finished a first episode, so the agent processes have run their code once) and closes when the
 * last episode is prepared, after which lanes start running dry. In between, every lane is busy:
 * exactly `lanes` episodes in flight. Turns accepted and per-turn overhead samples count inside it only.
 */
export class SteadyWindow {
  private recorded = 0;
  private prepared = 0;
  open = false;
  startedAt = 0;
  endedAt = 0;
  turns = 0;
  readonly overheadNs: number[] = [];
  private cpuAtStart = process.cpuUsage();
  cpu = { user: 0, system: 0 };
  private sysAtStart = systemCpu();
  machineBusy = 0;
  private agentsAtStart = new Map<number, number>();
  private agentsAtEnd = new Map<number, number>();
  /** Turns accepted in the window, by episode. */
  private readonly episodeTurns = new Map<string, number>();
  /** Episodes with a turn accepted before the window opened: their processes have run warm code. */
  private readonly playedBefore = new Set<string>();
  /**
   * CPU time of the agent processes in the window (ms), every process alive at its end counted: those
   * started in the window with all their start-up (see `agentsSplit` for the warm part alone).
   */
  agentsCpuMs = 0;

  constructor(
    private readonly lanes: number,
    private readonly total: number,
    private readonly warmup = lanes,
    /** CPU time (ms) of each live agent process by pid (tests inject their own). */
    private readonly agentsCpu: () => Map<number, number> = childrenCpuByPid,
  ) {}

  /** An episode was recorded (count the `[k/total]` progress lines). */
  recordedOne(): void {
    this.recorded += 1;
    if (this.recorded === this.warmup && !this.endedAt) {
      this.open = true;
      this.startedAt = performance.now();
      this.cpuAtStart = process.cpuUsage();
      this.sysAtStart = systemCpu();
      this.agentsAtStart = this.agentsCpu();
    }
  }

  /** An episode was prepared (RunProbes.episodePrepared). */
  preparedOne(): void {
    this.prepared += 1;
    if (this.prepared === this.total && this.open) this.close();
  }

  /** A move was accepted (`episodeId`: its episode, for the per-process split). */
  turn(episodeId?: string): void {
    if (this.open) {
      this.turns += 1;
      if (episodeId !== undefined) this.episodeTurns.set(episodeId, (this.episodeTurns.get(episodeId) ?? 0) + 1);
    } else if (!this.endedAt && episodeId !== undefined) this.playedBefore.add(episodeId);
  }

  /**
   * The window's agent CPU and turns split into warm processes and the others (AgentCpuSplit), given
   * the pids that held each episode's seats (from the run's records, after the run).
   */
  agentsSplit(seatPids: ReadonlyMap<string, readonly number[]>): AgentCpuSplit {
    const warm = new Set<number>();
    for (const episode of this.playedBefore) {
      for (const pid of seatPids.get(episode) ?? []) if (this.agentsAtStart.has(pid) && this.agentsAtEnd.has(pid)) warm.add(pid);
    }
    const split: AgentCpuSplit = { warm: { processes: 0, cpuMs: 0, turns: 0 }, other: { processes: 0, cpuMs: 0, turns: 0 } };
    for (const [pid, atEnd] of this.agentsAtEnd) {
      const part = warm.has(pid) ? split.warm : split.other;
      part.processes += 1;
      part.cpuMs += atEnd - (this.agentsAtStart.get(pid) ?? 0);
    }
    for (const [episode, turns] of this.episodeTurns) {
      const pids = seatPids.get(episode) ?? [];
      const share = pids.length ? pids.filter((p) => warm.has(p)).length / pids.length : 0;
      split.warm.turns += turns * share;
      split.other.turns += turns * (1 - share);
    }
    return split;
  }

  overhead(ns: number): void {
    if (this.open) this.overheadNs.push(ns);
  }

  /** CPU time per turn in the window: the orchestrator (this process), and every agent process alive in it together. */
  cpuMsPerTurn(): { orchestrator: number; agents: number } {
    const turns = Math.max(1, this.turns);
    return { orchestrator: round((this.cpu.user + this.cpu.system) / 1000 / turns, 3), agents: round(this.agentsCpuMs / turns, 3) };
  }

  get ms(): number {
    return this.endedAt - this.startedAt;
  }

  private close(): void {
    this.open = false;
    this.endedAt = performance.now();
    this.cpu = process.cpuUsage(this.cpuAtStart);
    this.agentsAtEnd = this.agentsCpu();
    // Per process: one that exited in the window must not take its earlier CPU off the others'.
    this.agentsCpuMs = 0;
    for (const [pid, atEnd] of this.agentsAtEnd) this.agentsCpuMs += atEnd - (this.agentsAtStart.get(pid) ?? 0);
    const sys = systemCpu();
    this.machineBusy = (sys.busy - this.sysAtStart.busy) / Math.max(1, sys.total - this.sysAtStart.total);
  }
}

/** `[k/total]` lines of the run's progress log are one per recorded episode. */
export const isEpisodeLine = (line: string): boolean => /^\[\s*\d+\/\d+\]/.test(line);
