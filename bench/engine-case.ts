/**
 * One engine benchmark case, run in its own process by bench/engine.ts: `concurrent` bot episodes in
 * flight, each exactly `turns` turns (`bot:chatter` speaks every turn and never ends early), over real
 * agent processes and real sockets, through the same driver as `parley run`.
 *
 * Method: 3 × `concurrent` episodes with `concurrent` lanes; figures come from the steady window
 * (window.ts: every lane busy, agent processes warm). Turns per second count the moves accepted in the
 * window; the overhead is the engine hook's act received → next turn.request written, per turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../orchestrator/run/driver.js';
import { caseArgs, reportCase } from './child.js';
import { PoolWatch, runHead, steadyRun, type RunHead } from './pool-watch.js';
import { quantile, round } from './stats.js';
import { isEpisodeLine, SteadyWindow } from './window.js';

export interface EngineCaseArgs {
  concurrent: number;
  turns: number;
  /** Seats per agent process (1: the default pool; more: multiplexed). */
  seatsPerProcess: number;
}

export interface EngineCaseResult extends RunHead {
  /** The steady window (see window.ts). */
  windowMs: number;
  turnsMeasured: number;
  turnsPerSecond: number;
  overheadMs: { p50: number; p99: number; max: number; samples: number };
  /** CPU time (user + system) per turn in the window: the orchestrator, and all agent processes together. */
  cpuMsPerTurn: { orchestrator: number; agents: number };
  /** Share of the machine's CPU time (all cores, all processes) that was busy in the window. */
  machineCpuBusy: number;
  /** Whole run, warm-up and tail included: turns per second from the first agent process ready to the last record. */
  wholeRunTurnsPerSecond: number;
}

const args = caseArgs<EngineCaseArgs>();
const n = args.concurrent;
const total = 3 * n;
const out = mkdtempSync(join(tmpdir(), 'parley-bench-engine-'));
const w = new SteadyWindow(n, total);
const pool = new PoolWatch();
let allTurns = 0;
const t0 = performance.now();

try {
  const config = steadyRun({ out, total, lanes: n, turns: args.turns, agent: { spec: 'bot:chatter' }, seatsPerProcess: args.seatsPerProcess });
  const result = await runExperiment(config, {
    log: (line) => isEpisodeLine(line) && w.recordedOne(),
    hosting: 'local',
    // Everyone joins at once: give the seats time to be hosted on a busy machine.
    tokenTtlMs: 300_000,
  }, {
    progressIntervalMs: 3_600_000,
    // Steady state at N episodes in flight: bot episodes are so short that a run would otherwise end
    // while its pool is still starting, with fewer than N in flight.
    fullPoolFirst: true,
    episodePrepared: () => w.preparedOne(),
    engine: {
      turnOverhead: (ns) => w.overhead(ns),
      moveAccepted: () => {
        allTurns += 1;
        w.turn();
      },
    },
    // Called once the first agent process is ready (episodes start then); the pool fills meanwhile.
    poolStarted: pool.started,
  });
  const end = performance.now();
  pool.stop();
  const ms = (q: number) => round(quantile(w.overheadNs, q) / 1e6, 3);
  const report: EngineCaseResult = {
    ...runHead(result.ran, args.turns, pool, t0),
    windowMs: Math.round(w.ms),
    turnsMeasured: w.turns,
    turnsPerSecond: round(w.turns / (w.ms / 1000), 1),
    overheadMs: { p50: ms(0.5), p99: ms(0.99), max: ms(1), samples: w.overheadNs.length },
    cpuMsPerTurn: w.cpuMsPerTurn(),
    machineCpuBusy: round(w.machineBusy, 2),
    wholeRunTurnsPerSecond: round(allTurns / ((end - pool.readyAt) / 1000), 1),
  };
  reportCase({ ...report });
} finally {
  rmSync(out, { recursive: true, force: true });
}
