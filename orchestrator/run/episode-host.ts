import type { EpisodeRecord, PolicyConfig, SimulationProtocol } from '../../protocol/index.js';
import { RunPaths } from '../../run-dir/index.js';
import { systemClock, type Clock } from '../clock.js';
import { Episode } from '../episode.js';
import type { EpisodePlan } from '../episode-plan.js';
import { FileLedger } from '../ledger.js';
import { closeServer, createHttpServer, listen } from '../net/http-server.js';
import { AGENT_PATH, attachAgentEndpoint } from '../net/ws-endpoint.js';
import { SeatRegistry } from '../seat-registry.js';
import { poolSizeFor } from '../supervisor/pool-size.js';
import { hostEpisode, RECOVERY_GRACE_MS } from '../supervisor/seat-supervisor.js';
import { WorkerPool } from '../supervisor/worker-pool.js';
import { makeLimits } from '../world.js';

export interface EpisodeHostOptions {
  /** Episodes this host runs at once. */
  concurrency: number;
  /** Seats of the largest episode expected (sizes the pool; never two seats of one episode per process). */
  seatsPerEpisode: number;
  /** >1: a process may host seats of different episodes at once (multiplexed pool). */
  seatsPerProcess: number;
  /** Policies every agent process loads before its first seat. */
  warm: PolicyConfig[];
  log: (line: string) => void;
  /** Agent processes' scheduling priority below this process (see driver.ts WORKER_NICENESS). */
  niceness?: number;
  workerPath?: string;
  clock?: Clock;
}

/** Where one episode's files go and what it runs under. */
export interface HostedRun {
  runId: string;
  /** Directory receiving `ledgers/<episode>/<seat>.jsonl` (a run directory, or a worker's scratch copy). */
  dir: string;
  maxTurns: number;
  turnDeadlineMs: number;
  /** The simulation protocol the episode follows. */
  protocol: SimulationProtocol;
  /** Ends the episode now (its seats are dropped; the caller discards the record). */
  signal?: AbortSignal;
}

/**
 * The local hosting half of a run, usable one planned episode at a time: an agent endpoint on
 * 127.0.0.1, a seat registry and a pool of local agent processes, with the same supervision (crash
 * recovery, pid cross-check) as `runExperiment`. `parley worker` runs queue jobs through it; the run
 * driver keeps its own loop (it also serves remote seats and writes the run directory).
 */
export class EpisodeHost {
  private constructor(
    private readonly pool: WorkerPool,
    private readonly registry: SeatRegistry,
    private readonly url: string,
    private readonly stop: () => Promise<void>,
    private readonly opts: EpisodeHostOptions,
  ) {}

  /** Starts the endpoint and the agent processes (ready and warmed when this resolves). */
  static async start(opts: EpisodeHostOptions): Promise<EpisodeHost> {
    const clock = opts.clock ?? systemClock;
    const registry = new SeatRegistry({ clock, reconnectGraceMs: RECOVERY_GRACE_MS });
    const server = createHttpServer();
    const endpoint = attachAgentEndpoint(server, registry, { clock, log: opts.log, logJoins: false });
    const seatsPerWorker = Math.max(1, opts.seatsPerProcess);
    const pool = new WorkerPool({
      size: poolSizeFor(opts.concurrency, opts.seatsPerEpisode, seatsPerWorker),
      seatsPerWorker,
      warm: opts.warm,
      log: opts.log,
      ...(opts.niceness !== undefined ? { niceness: opts.niceness } : {}),
      ...(opts.workerPath ? { workerPath: opts.workerPath } : {}),
    });
    const stop = async () => {
      endpoint.close();
      await Promise.all([pool.close(), closeServer(server)]);
    };
    try {
      const port = await listen(server, 0, '127.0.0.1');
      await pool.start();
      return new EpisodeHost(pool, registry, `ws://127.0.0.1:${port}${AGENT_PATH}`, stop, opts);
    } catch (err) {
      await stop();
      throw err;
    }
  }

  /** Pids of the live agent processes. */
  get pids(): number[] {
    return this.pool.pids;
  }

  /** Runs one planned episode on the pool; its ledgers land under `run.dir`. */
  async run(plan: EpisodePlan, run: HostedRun): Promise<EpisodeRecord> {
    const clock = this.opts.clock ?? systemClock;
    const episode = Episode.prepare(plan, {
      registry: this.registry,
      clock,
      runId: run.runId,
      limits: makeLimits(run.maxTurns, run.turnDeadlineMs),
      protocol: run.protocol,
      tokenTtlMs: 60_000,
      ledgerFor: (episodeId, seat) => new FileLedger(new RunPaths(run.dir).ledgerFile(episodeId, seat)),
    });
    let onAbort = () => {};
    const abort = new Promise<string>((resolve) => {
      onAbort = () => {
        resolve('stopped');
        for (const seat of episode.links.keys()) episode.seatLost(seat, 'host stopping');
      };
      if (run.signal?.aborted) onAbort();
      else run.signal?.addEventListener('abort', onAbort, { once: true });
    });
    let record: EpisodeRecord;
    let hosted: Awaited<ReturnType<typeof hostEpisode>>;
    try {
      hosted = await hostEpisode(episode, this.pool, { url: this.url, log: this.opts.log });
      record = await episode.run({
        abort,
        hostPids: hosted.hostPids,
        onSeatEvent: (e) => hosted.onSeatEvent(e),
        recoveries: hosted.recoveries,
      });
    } finally {
      run.signal?.removeEventListener('abort', onAbort);
    }
    // As in the driver: seats free their slots when their processes report the release.
    void hosted.settle();
    return record;
  }

  /** Stops the agent processes and the endpoint. */
  close(): Promise<void> {
    return this.stop();
  }
}
