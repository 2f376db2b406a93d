import { hostname, networkInterfaces } from 'node:os';
import type { EpisodeRecord, PolicyConfig } from '../../protocol/index.js';
import type { SimulationProtocol } from '../../simulation/index.js';
import { openLedgerFile, type RunLock } from '../../run-dir/index.js';
import { systemClock, type Clock } from '../clock.js';
import type { EngineHooks } from '../engine/engine-types.js';
import type { EpisodeScorer } from '../end-scores.js';
import { Episode, type EpisodeDeps } from '../episode.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { ConnectionOptions } from '../net/agent-connection.js';
import { closeServer, createHttpServer, listen } from '../net/http-server.js';
import type { BrowserEndpoint } from '../net/socketio-endpoint.js';
import { webRoutes, type WatchGate, type WebRouteOptions } from '../net/web-routes.js';
import type { WatchHub } from '../watch/watch-hub.js';
import { teeLedger } from '../watch/tee-ledger.js';
import { AGENT_PATH, attachAgentEndpoint } from '../net/ws-endpoint.js';
import { SeatRegistry } from '../seat-registry.js';
import { poolSizeFor } from '../supervisor/pool-size.js';
import { workerNiceness } from '../supervisor/worker-niceness.js';
import { superviseEpisode, isOpen, RECOVERY_GRACE_MS } from '../supervisor/seat-supervisor.js';
import { WorkerPool } from '../supervisor/worker-pool.js';
import { makeLimits } from '../world.js';

/**
 * How long a reserved seat's token waits for its first join, by who is expected to dial in. The one
 * place these are set: `run`, `serve` and queue workers all reserve seats through `EpisodeHost`.
 */
export const TOKEN_TTL_MS = {
  /** An agent process this machine starts: it dials in within seconds, or something is wrong. */
  localAgent: 60_000,
  /** A remote agent (`serve`): someone starts it by hand from the printed token. */
  remoteAgent: 30 * 60_000,
  /** A person opening a seat's link in a browser (minutes, not seconds). */
  human: 30 * 60_000,
} as const;

/** The local agent process pool of a host. */
export interface HostPoolOptions {
  /** Episodes in flight at once. */
  concurrency: number;
  /** Episodes to play after the first `concurrency` (a run knows; a queue worker does not: unbounded). */
  later?: number;
  /** Seats of the largest episode the pool hosts (never two seats of one episode per process). */
  seatsPerEpisode: number;
  /** >1: a process may host seats of different episodes at once (multiplexed pool). */
  seatsPerProcess: number;
  /** Policies every agent process loads before its first seat. */
  warm: PolicyConfig[];
  /** Every seat hosted is a bot's (a run that knows all its policies): leaner agent processes (bot-process-flags.ts). */
  botsOnly?: boolean;
  /**
   * Past the first episode's processes, start one only for a seat that has waited as long as a start takes
   * (supervisor/demand-growth.ts): bot episodes end sooner than a process starts, so most of a bot run's
   * pool used to start, stay unused and be stopped.
   */
  growOnDemand?: boolean;
  /** No seat hosted opens TLS (a run that knows all its policies; llm/tls-need.ts): agent processes start without NODE_EXTRA_CA_CERTS. */
  tlsFree?: boolean;
  /** Agent processes' scheduling priority below this process (default PARLEY_WORKER_NICE, else 19: workerNiceness). */
  niceness?: number;
  /** Another agent process entry (a test's fake agent) instead of the declared one. */
  workerPath?: string;
}

export interface EpisodeHostOptions {
  log: (line: string) => void;
  clock?: Clock;
  /** The agent endpoint's address (default 127.0.0.1, port 0). */
  host?: string;
  port?: number;
  /** Agents that dial in are remote (`serve`): longer token TTL, reported provenance, joins logged. */
  remote?: boolean;
  /** Serve the seat page and socket.io for people's browsers, with these origins besides its own. */
  browsers?: {
    allowOrigins: readonly string[];
    routes?: Pick<WebRouteOptions, 'page' | 'extra' | 'also'>;
    /** Behind a trusted reverse proxy (`parley study --trust-proxy`): no connection cap per address (connection-cap.ts). */
    trustProxy?: boolean;
  };
  /**
   * `--watch` (needs `browsers`): the watch page at `/watch?key=K` and its socket.io namespace, fed by
   * every episode this host prepares (ledger lines, turns). Read-only: nothing reaches a seat from it.
   */
  watch?: { hub: WatchHub; gate: WatchGate };
  /** The local agent process pool; none when every seat is played by someone dialling in. */
  pool?: HostPoolOptions;
  /**
   * Agent processes lent by the caller (pool-lender.ts: the runs of one `parley multiverse` share them),
   * started and stopped by the lender: used instead of a pool of this host's own (`pool` is then unused).
   */
  borrowedPool?: WorkerPool;
  /** How long a token waits for its first join (default TOKEN_TTL_MS by `remote`). */
  tokenTtlMs?: number;
  /** How long a person's (`human`) seat link waits to be opened (default TOKEN_TTL_MS.human). */
  humanJoinTtlMs?: number;
  /** A person's turn deadline on `human` seats (default: the run's turn deadline). */
  humanDeadlineMs?: number;
  /** How long a dropped seat may rejoin (default: 10 s remote, else RECOVERY_GRACE_MS: a replacement process takes the seat over). */
  reconnectGraceMs?: number;
  /** Remote hosting: count the usage remote agents report in the cost estimate (`--trust-remote-usage`). */
  trustRemoteUsage?: boolean;
  /** Heartbeat and abuse limits of the agent connections (a test detects a hung process sooner). */
  connection?: ConnectionOptions;
  /** Instrumentation of the turn loop. */
  hooks?: EngineHooks;
  /** Scores each episode as it ends, before its seats are told (`parley serve --judge`). */
  scorer?: EpisodeScorer;
  /** Once listening, before the pool starts: the agent endpoint and the page's base URL as other machines see them. */
  onListening?: (agentUrl: string, httpUrl: string) => void;
  /** Just before the pool starts, with its size (a run says how many agent processes it starts). */
  onPoolStarting?: (size: number) => void;
}

/** Where one episode's files go and what it runs under. */
export interface EpisodeRunSettings {
  runId: string;
  /** The lock of the directory receiving `ledgers/<episode>/<seat>.jsonl` (a run directory, or a worker's scratch copy). */
  lock: RunLock;
  maxTurns: number;
  turnDeadlineMs: number;
  /** The simulation protocol the episode follows. */
  protocol: SimulationProtocol;
  /** Ends the episode now (its seats are dropped; the caller discards the record). */
  signal?: AbortSignal;
}

/** The seats of a plan taken by people (`human`): their links are handed out, never hosted by the pool. */
export const openSeats = (p: EpisodePlan): string[] => Object.entries(p.policies ?? {}).filter(([, c]) => isOpen(c)).map(([s]) => s);

/**
 * Whether a host of these episodes serves the seat page and socket.io (`browsers`): remote seats (an agent
 * or a person may dial in), a person's open seat, the watch page, or browser origins the user allowed. A
 * run of bots and LLM seats has none of them, and loading socket.io and engine.io (~0.8 MB of bundled
 * code) was ~10 % of such a `parley run` process's CPU (bench/start-up.md).
 */
export function browsersMayCome(pending: readonly EpisodePlan[], o: { remote: boolean; watch: boolean; allowOrigins: readonly string[] }): boolean {
  return o.remote || o.watch || o.allowOrigins.length > 0 || pending.some((p) => openSeats(p).length > 0);
}

/**
 * How long the tokens of a plan's seats wait for their first join: the host's TTL (TOKEN_TTL_MS by
 * who dials in, unless set), and for an episode with a person's seat at least the human join TTL.
 */
export function seatTokenTtlMs(plan: EpisodePlan, o: Pick<EpisodeHostOptions, 'remote' | 'tokenTtlMs' | 'humanJoinTtlMs'>): number {
  const ttl = o.tokenTtlMs ?? (o.remote ? TOKEN_TTL_MS.remoteAgent : TOKEN_TTL_MS.localAgent);
  return openSeats(plan).length ? Math.max(ttl, o.humanJoinTtlMs ?? TOKEN_TTL_MS.human) : ttl;
}

/** Agent processes a pool of these options keeps. */
export const hostPoolSize = (p: HostPoolOptions): number => poolSizeFor(p.concurrency, p.seatsPerEpisode, Math.max(1, p.seatsPerProcess), p.later);

/** The local agent process pool of these options (not started). */
export function hostPool(p: HostPoolOptions, log: (line: string) => void): WorkerPool {
  return new WorkerPool({
    size: hostPoolSize(p),
    // Multiplexed: the spare process (~10 seats) starts once the others are ready (worker-pool.ts fill). At one
    // seat a process the spares are many and lanes change episodes while the pool still fills: not measured there.
    ...(p.seatsPerProcess > 1 ? { needed: poolSizeFor(p.concurrency, p.seatsPerEpisode, p.seatsPerProcess, 0) } : {}),
    seatsPerWorker: Math.max(1, p.seatsPerProcess),
    // The first episode's seats start first (one process each), the rest of the pool behind them.
    firstWave: p.seatsPerEpisode,
    niceness: p.niceness ?? workerNiceness(),
    warm: p.warm,
    ...(p.botsOnly ? { botsOnly: true } : {}),
    ...(p.growOnDemand ? { growOnDemand: true } : {}),
    ...(p.tlsFree ? { tlsFree: true } : {}),
    log,
    ...(p.workerPath ? { workerPath: p.workerPath } : {}),
  });
}

/**
 * The one episode-hosting path of `run`, `serve` and queue workers: an HTTP server with the agent
 * endpoint (and, for people, the seat page and socket.io), a seat registry, and optionally a pool of
 * local agent processes with their supervision (crash recovery, pid cross-check). `prepare` reserves an
 * episode's seats (tokens); `play` hosts its seats on the pool and runs it to its record.
 */
export class EpisodeHost {
  /** Episodes being played, so `dropAll` can end them at once. */
  private readonly playing = new Set<Episode>();

  private constructor(
    private readonly o: EpisodeHostOptions,
    private readonly clock: Clock,
    private readonly registry: SeatRegistry,
    /** The local agent pool, once started (none when every seat dials in). */
    readonly pool: WorkerPool | null,
    /** The agent endpoint local processes dial. */
    private readonly dialUrl: string,
    /** The agent endpoint and the page's base URL as other machines see them. */
    readonly agentUrl: string,
    readonly httpUrl: string,
    private readonly closeEndpoints: () => void,
    private readonly stop: () => Promise<void>,
  ) {}

  /** Listens and starts the agent processes (ready and warmed when this resolves); cleans up on failure. */
  static async start(o: EpisodeHostOptions): Promise<EpisodeHost> {
    const clock = o.clock ?? systemClock;
    // socket.io and engine.io (with its MIME table) load only for runs people join or watch: they were
    // ~30 ms of the start-up of every other `run`.
    const web = o.browsers ? { ...(await import('../net/socketio-endpoint.js')), ...(await import('../net/watch-endpoint.js')) } : null;
    const registry = new SeatRegistry({ clock, reconnectGraceMs: o.reconnectGraceMs ?? (o.remote ? 10_000 : RECOVERY_GRACE_MS) });
    // The page for people at `/` (seat client), socket.io for their browsers, `ws` for agent processes:
    // one server, one upgrade router, the same connection edge behind both transports.
    let browser: BrowserEndpoint | null = null;
    const server = o.browsers
      ? createHttpServer(webRoutes({ page: 'seat', ...o.browsers.routes, socketIo: (req, res) => browser?.handleRequest(req, res), ...(o.watch ? { watch: o.watch.gate } : {}) }), { allowOrigins: o.browsers.allowOrigins, ...(o.host !== undefined ? { host: o.host } : {}), log: o.log, trustProxy: o.browsers.trustProxy ?? false })
      : createHttpServer(undefined, { log: o.log });
    const endpoint = attachAgentEndpoint(server, registry, { clock, log: o.log, logJoins: o.remote ?? false, ...o.connection });
    if (web) {
      browser = web.attachBrowserEndpoint(server, registry, { clock, log: o.log, logJoins: true, ...o.connection });
      if (o.watch) web.attachWatchEndpoint(browser, o.watch.hub, o.watch.gate, { clock, log: o.log });
    }
    const closeEndpoints = () => {
      endpoint.close();
      browser?.close();
    };
    const pool = o.borrowedPool ?? (o.pool ? hostPool(o.pool, o.log) : null);
    const stop = async () => {
      closeEndpoints();
      // A borrowed pool is its lender's to stop (pool-lender.ts).
      await Promise.all([pool === o.borrowedPool ? undefined : pool?.close(), closeServer(server)]);
    };
    try {
      const host = o.host ?? '127.0.0.1';
      let port: number;
      try {
        port = await listen(server, o.port ?? 0, host);
      } catch (err) {
        throw new Error(`cannot listen on ${host}:${o.port ?? 0}: ${(err as Error).message}`);
      }
      const wildcard = host === '0.0.0.0' || host === '::';
      // Local agent processes dial the loopback address; the shown URLs are the ones other machines use.
      const shownHost = wildcard ? publicAddress() : host;
      const agentUrl = `ws://${shownHost}:${port}${AGENT_PATH}`;
      const httpUrl = `http://${shownHost}:${port}`;
      o.onListening?.(agentUrl, httpUrl);
      if (pool && o.pool && !o.borrowedPool) {
        o.onPoolStarting?.(hostPoolSize(o.pool));
        await pool.start();
      }
      return new EpisodeHost(o, clock, registry, pool, `ws://${wildcard ? '127.0.0.1' : host}:${port}${AGENT_PATH}`, agentUrl, httpUrl, closeEndpoints, stop);
    } catch (err) {
      await stop();
      throw err;
    }
  }

  /** The turn loop's instrumentation: the caller's, and the watch feed's turns when watched. */
  private get hooks(): EngineHooks | undefined {
    const { hooks, watch } = this.o;
    if (!watch) return hooks;
    return {
      ...hooks,
      turnRecorded: (episodeId, record) => {
        hooks?.turnRecorded?.(episodeId, record);
        try {
          watch.hub.turn(episodeId, record);
        } catch (err) {
          // Watching never fails an episode; a bug here is reported, and the run goes on.
          this.o.log(`watch feed: ${(err as Error).message}`);
        }
      },
    };
  }

  /** Pids of the live agent processes. */
  get pids(): number[] {
    return this.pool?.pids ?? [];
  }

  /** Reserves a planned episode's seats (their tokens); its ledgers land under `run.dir`. */
  prepare(plan: EpisodePlan, run: Omit<EpisodeRunSettings, 'signal'>): Episode {
    const o = this.o;
    const humanDeadlineMs = o.humanDeadlineMs;
    const hub = o.watch?.hub;
    const deps: EpisodeDeps = {
      registry: this.registry,
      clock: this.clock,
      runId: run.runId,
      limits: makeLimits(run.maxTurns, run.turnDeadlineMs),
      protocol: run.protocol,
      tokenTtlMs: seatTokenTtlMs(plan, o),
      // Remote agents report their own provenance: labelled as such, and kept out of cost unless trusted.
      ...(o.remote ? { reportedProvenance: o.trustRemoteUsage ? ('trusted' as const) : ('reported' as const) } : {}),
      // Watched: every line a seat's ledger gets is shown to the watchers too (what each seat was told).
      ledgerFor: (episodeId, seat) => {
        const file = openLedgerFile(run.lock, episodeId, seat);
        return hub ? teeLedger(file, (line) => hub.ledgerLine(episodeId, seat, line)) : file;
      },
      ...(humanDeadlineMs !== undefined ? { seatDeadlineMs: (p: EpisodePlan) => Object.fromEntries(openSeats(p).map((s) => [s, humanDeadlineMs])) } : {}),
    };
    hub?.prepared(plan.episodeId);
    return Episode.prepare(plan, deps);
  }

  /**
   * Hosts a prepared episode's seats on the pool (processes hosting no other seat of it; a seat whose
   * process dies is re-established on a fresh one, or the episode fails with the reason:
   * seat-supervisor.ts) and runs it to its record. `abort` ends it early (the caller drops the record).
   */
  async play(episode: Episode, abort?: Promise<string>): Promise<EpisodeRecord> {
    this.playing.add(episode);
    try {
      const hosted = this.pool ? await superviseEpisode(episode, this.pool, { url: this.dialUrl, log: this.o.log }) : null;
      const record = await episode.run({
        ...(abort ? { abort } : {}),
        ...(hosted ? { hostPids: hosted.hostPids, onSeatEvent: (e) => hosted.onSeatEvent(e), recoveries: hosted.recoveries } : {}),
        ...(this.hooks ? { hooks: this.hooks } : {}),
        ...(this.o.scorer ? { scorer: this.o.scorer } : {}),
      });
      // Not awaited: the caller moves on at once; the pool frees each seat's slot when its worker
      // reports the release, and settle() drops a seat whose worker never does.
      if (hosted) void hosted.settle();
      return record;
    } finally {
      this.playing.delete(episode);
    }
  }

  /** Prepares and plays one planned episode; `run.signal` ends it early (a queue worker stopping). */
  async run(plan: EpisodePlan, run: EpisodeRunSettings): Promise<EpisodeRecord> {
    const episode = this.prepare(plan, run);
    let onAbort = () => {};
    const abort = new Promise<string>((resolve) => {
      onAbort = () => {
        resolve('stopped');
        for (const seat of episode.links.keys()) episode.seatLost(seat, 'host stopping');
      };
      if (run.signal?.aborted) onAbort();
      else run.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await this.play(episode, abort);
    } finally {
      run.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Interrupted: no more joins, and every episode being played loses its seats now (`why` is recorded). */
  dropAll(why: string): void {
    this.closeEndpoints();
    for (const e of this.playing) for (const seat of e.links.keys()) e.seatLost(seat, why);
  }

  /** Stops the agent processes and the server. */
  close(): Promise<void> {
    return this.stop();
  }
}

/** This machine's first non-loopback IPv4 address (what another machine dials), else its host name. */
function publicAddress(): string {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return hostname();
}
