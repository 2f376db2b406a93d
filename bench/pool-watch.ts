import { RunConfig } from '../orchestrator/run-config.js';
import type { RunProbes } from '../orchestrator/run/run-probes.js';

type Pool = Parameters<NonNullable<RunProbes['poolStarted']>>[0];

/**
 * What a steady-window case learns about its run's agent process pool: when the first process was ready
 * (episodes start on it), when every process was (0: the run ended first; bot runs are that short), and
 * the most processes alive at once. `started` is the run's `poolStarted` probe; `stop()` once it returned.
 */
export class PoolWatch {
  readyAt = 0;
  fullAt = 0;
  size = 0;
  private stopCounting = () => {};

  readonly started = (pool: Pool): void => {
    this.readyAt = performance.now();
    // The most processes alive at once (the pool may not be full before a short run ends).
    const count = setInterval(() => (this.size = Math.max(this.size, pool.pids.length)), 100);
    void pool.full().then((full) => {
      if (full) this.fullAt = performance.now();
      this.size = Math.max(this.size, pool.pids.length);
      if (full) clearInterval(count);
    });
    this.stopCounting = () => clearInterval(count);
  };

  stop(): void {
    this.stopCounting();
  }
}

/** The figures every steady-window case reports first: what ran, and how its pool started. */
export interface RunHead {
  episodes: number;
  /** Episodes not `ok`, or not exactly the asked number of turns long (every case asks a fixed length). */
  failed: number;
  agentProcesses: number;
  /** Run start → the first agent process ready (episodes start on it). */
  poolStartMs: number;
  /** Run start → every process of the pool ready (null: the run ended first; bot runs are that short). */
  poolFullMs: number | null;
}

/** RunHead of a run that started at `t0` and asked every episode for `turns` turns. */
export function runHead(ran: readonly { status: string; turns: readonly unknown[] }[], turns: number, pool: PoolWatch, t0: number): RunHead {
  return {
    episodes: ran.length,
    failed: ran.filter((r) => r.status !== 'ok' || r.turns.length !== turns).length,
    agentProcesses: pool.size,
    poolStartMs: Math.round(pool.readyAt - t0),
    poolFullMs: pool.fullAt ? Math.round(pool.fullAt - t0) : null,
  };
}

/**
 * The run a steady-window case plays: `total` built-in scenarios in agents mode, `lanes` in flight, each
 * exactly `turns` turns, every seat `agent`, on a pool of `seatsPerProcess` seats per process (over 1: multiplexed).
 */
export function steadyRun(o: { out: string; total: number; lanes: number; turns: number; agent: { spec: string; baseURL?: string; apiKeyEnv?: string }; seatsPerProcess: number }): RunConfig {
  return RunConfig.parse({
    scenarios: 'builtin',
    modes: ['agents'],
    out: o.out,
    repeats: Math.ceil(o.total / 20),
    limit: o.total,
    concurrency: o.lanes,
    maxTurns: o.turns,
    agents: [o.agent],
    pool: o.seatsPerProcess > 1 ? { multiplex: true, seatsPerProcess: o.seatsPerProcess } : { multiplex: false, seatsPerProcess: 1 },
  });
}
