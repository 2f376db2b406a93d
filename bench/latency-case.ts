/**
 * The latency-bound benchmark case, in its own process (bench/latency.ts runs the fake LLM server
 * outside it): `concurrent` LLM episodes in flight, every seat an `openai:` policy answered after a fixed
 * delay, each episode exactly `turns` turns. Ideal: every lane only ever waits for the model, i.e.
 * `concurrent / (turns × delay)` episodes per second.
 *
 * Method: 5 × `concurrent` episodes with `concurrent` lanes; the figures come from the steady window
 * (window.ts: every lane busy), opened after 2 × `concurrent` episodes, once every agent process has
 * played LLM turns before (the first episodes of a process run cold code, much slower on 2 cores). Not at
 * one seat per process: there the pool (108 processes, a few starting at a time) is still filling when the
 * window opens, so the window's agent CPU per turn is taken over the processes that had played before it
 * opened (window.ts `agentsSplit`); the others' CPU (start-up, first episodes) is reported beside it and
 * counts in the whole run's figure. Episodes of equal length finish in waves, so
 * the rate is measured in turns, which flow evenly: episodes per minute = turns per minute ÷ `turns`.
 * The whole run (from the run's start: process start-up, first, cold episodes and the tail included) is
 * reported too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../orchestrator/run/driver.js';
import { caseArgs, reportCase } from './child.js';
import { PoolWatch, runHead, steadyRun, type RunHead } from './pool-watch.js';
import { benchPolicy } from './llm-replies.js';
import { round } from './stats.js';
import { reapedChildrenCpuMs } from './memory.js';
import { isEpisodeLine, SteadyWindow, type AgentCpuSplit } from './window.js';
import { Timeline } from './timeline.js';

export interface LatencyCaseArgs {
  baseURL: string;
  concurrent: number;
  turns: number;
  delayMs: number;
  seatsPerProcess: number;
  /** Another agent process entry for the pool (bench/floor-seat.ts: the floor seat, bench/floor.md); unset: Parley's agent. */
  workerEntry?: string;
}

export interface LatencyCaseResult extends RunHead {
  /** Run start → the first episode's engine started (every seat of it joined). */
  firstEpisodeMs: number;
  idealEpisodesPerMinute: number;
  /**
   * cpuMsPerTurn.agents: the warm processes' CPU ÷ the turns they played (window.ts AgentCpuSplit);
   * agentsAllProcesses: every agent process alive in the window ÷ all its turns, start-up of the processes
   * started in it included (the pool still fills during the window at one seat per process); agentProcesses:
   * the split itself.
   */
  window: {
    ms: number;
    turns: number;
    episodesPerMinute: number;
    efficiency: number;
    machineCpuBusy: number;
    cpuMsPerTurn: { orchestrator: number; agents: number; agentsAllProcesses: number };
    agentProcesses: AgentCpuSplit;
  };
  /**
   * From the run's start to its last record (as results.json's notes define it); `toReturnMs`: to the run's
   * return, after it stopped its agent processes and wrote its run files (the whole command's time).
   */
  wholeRun: { ms: number; toReturnMs: number; episodesPerMinute: number; efficiency: number; cpuMsPerTurn: { orchestrator: number; agents: number } };
}

const a = caseArgs<LatencyCaseArgs>();
const n = a.concurrent;
const total = 5 * n;
const out = mkdtempSync(join(tmpdir(), 'parley-bench-latency-'));
const w = new SteadyWindow(n, total, 2 * n);
const pool = new PoolWatch();
let firstEpisode = 0;
let lastRecord = 0;
const t0 = performance.now();
const cpuAtT0 = process.cpuUsage();
const tl = new Timeline(t0);

try {
  const config = steadyRun({ out, total, lanes: n, turns: a.turns, agent: benchPolicy(a.baseURL), seatsPerProcess: a.seatsPerProcess });
  const result = await runExperiment(config, {
    log: (line) => {
      tl.mark(line.slice(0, 40));
      if (!isEpisodeLine(line)) return;
      lastRecord = performance.now();
      w.recordedOne();
    },
    hosting: 'local',
    tokenTtlMs: 300_000,
  }, {
    progressIntervalMs: 3_600_000,
    ...(a.workerEntry ? { workerEntry: a.workerEntry } : {}),
    episodePrepared: (e) => {
      tl.prepared(e.world.episodeId);
      w.preparedOne();
    },
    engine: {
      moveAccepted: (episodeId) => {
        tl.turn(episodeId);
        w.turn(episodeId);
      },
      episodeStarted: (episodeId) => {
        tl.started(episodeId);
        firstEpisode ||= performance.now();
      },
    },
    // Called once the first agent process is ready (episodes start then); the pool fills meanwhile.
    poolStarted: (p) => {
      tl.mark('pool started');
      tl.watch(p);
      pool.started(p);
    },
  });
  const end = performance.now();
  tl.mark('returned');
  pool.stop();
  const idealPerMin = (n / ((a.turns * a.delayMs) / 1000)) * 60;
  const windowPerMin = (w.turns / a.turns / w.ms) * 60_000;
  // From the run's start (agent process start-up counts against the whole run) to its last record: the
  // end was the run's return until now, which also counted stopping 108 processes and writing run files.
  const wholeMs = lastRecord - t0;
  const wholePerMin = (result.ran.length / wholeMs) * 60_000;
  // Every agent process has exited and been reaped by now (the pool closed): their CPU is all counted.
  const turnsPlayed = Math.max(1, result.ran.reduce((sum, r) => sum + r.turns.length, 0));
  const cpuSelf = process.cpuUsage(cpuAtT0);
  // Which processes played each episode's seats (the records say): the window's turns are shared among them.
  const seatPids = new Map(result.ran.map((r) => [r.episodeId, r.seats.flatMap((s) => (s.pid === null ? [] : [s.pid]))]));
  const split = w.agentsSplit(seatPids);
  tl.write(seatPids);
  const report: LatencyCaseResult = {
    ...runHead(result.ran, a.turns, pool, t0),
    firstEpisodeMs: Math.round(firstEpisode - t0),
    idealEpisodesPerMinute: round(idealPerMin, 1),
    window: {
      ms: Math.round(w.ms),
      turns: w.turns,
      episodesPerMinute: round(windowPerMin, 1),
      efficiency: round(windowPerMin / idealPerMin, 3),
      machineCpuBusy: round(w.machineBusy, 2),
      cpuMsPerTurn: {
        orchestrator: w.cpuMsPerTurn().orchestrator,
        agents: round(split.warm.cpuMs / Math.max(1, split.warm.turns), 3),
        agentsAllProcesses: w.cpuMsPerTurn().agents,
      },
      agentProcesses: {
        warm: { ...split.warm, turns: round(split.warm.turns, 1) },
        other: { ...split.other, turns: round(split.other.turns, 1) },
      },
    },
    wholeRun: {
      ms: Math.round(wholeMs),
      toReturnMs: Math.round(end - t0),
      episodesPerMinute: round(wholePerMin, 1),
      efficiency: round(wholePerMin / idealPerMin, 3),
      cpuMsPerTurn: { orchestrator: round((cpuSelf.user + cpuSelf.system) / 1000 / turnsPlayed, 3), agents: round(reapedChildrenCpuMs() / turnsPlayed, 3) },
    },
  };
  reportCase({ ...report });
} finally {
  rmSync(out, { recursive: true, force: true });
}
