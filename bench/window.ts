import { childrenCpuMs, systemCpu } from './memory.js';

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
  private agentsAtStart = 0;
  /** CPU time of the agent processes in the window (ms). */
  agentsCpuMs = 0;

  constructor(private readonly lanes: number, private readonly total: number, private readonly warmup = lanes) {}

  /** An episode was recorded (count the `[k/total]` progress lines). */
  recordedOne(): void {
    this.recorded += 1;
    if (this.recorded === this.warmup && !this.endedAt) {
      this.open = true;
      this.startedAt = performance.now();
      this.cpuAtStart = process.cpuUsage();
      this.sysAtStart = systemCpu();
      this.agentsAtStart = childrenCpuMs();
    }
  }

  /** An episode was prepared (RunProbes.episodePrepared). */
  preparedOne(): void {
    this.prepared += 1;
    if (this.prepared === this.total && this.open) this.close();
  }

  turn(): void {
    if (this.open) this.turns += 1;
  }

  overhead(ns: number): void {
    if (this.open) this.overheadNs.push(ns);
  }

  get ms(): number {
    return this.endedAt - this.startedAt;
  }

  private close(): void {
    this.open = false;
    this.endedAt = performance.now();
    this.cpu = process.cpuUsage(this.cpuAtStart);
    this.agentsCpuMs = childrenCpuMs() - this.agentsAtStart;
    const sys = systemCpu();
    this.machineBusy = (sys.busy - this.sysAtStart.busy) / Math.max(1, sys.total - this.sysAtStart.total);
  }
}

/** `[k/total]` lines of the run's progress log are one per recorded episode. */
export const isEpisodeLine = (line: string): boolean => /^\[\s*\d+\/\d+\]/.test(line);
