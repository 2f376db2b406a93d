import type { EpisodeRecord, PolicyConfig, SimulationProtocol } from '../../protocol/index.js';
import type { Clock } from '../clock.js';
import { Episode } from '../episode.js';
import type { EpisodePlan } from '../episode-plan.js';
import { FileLedger } from '../ledger.js';
import { closeServer, createHttpServer, listen } from '../net/http-server.js';
import { attachBrowserEndpoint } from '../net/socketio-endpoint.js';
import { webRoutes } from '../net/web-routes.js';
import { AGENT_PATH, attachAgentEndpoint } from '../net/ws-endpoint.js';
import type { RunConfig } from '../run-config.js';
import { SeatRegistry } from '../seat-registry.js';
import { poolSizeFor } from '../supervisor/pool-size.js';
import { hostEpisode, isOpen, RECOVERY_GRACE_MS } from '../supervisor/seat-supervisor.js';
import { WorkerPool } from '../supervisor/worker-pool.js';
import { liveSeats, makeLimits } from '../world.js';
import type { RunPaths } from '../../run-dir/index.js';
import type { RunProbes } from './run-probes.js';
import { hostname, networkInterfaces } from 'node:os';

/** How the seats of a run's episodes are hosted and reached (the user-facing part of DriverOptions). */
export interface HostingOptions {
  /** `local`: the supervisor's agent processes host every seat; `remote`: agents dial in with printed tokens. */
  hosting: 'local' | 'remote';
  port?: number;
  host?: string;
  /**
   * Each prepared episode with the seats whose tokens are to be handed out (serve prints or files them):
   * every seat when remote, the open (human) seats when local. Unset locally: open seats are printed.
   */
  onSeats?: (episode: Episode, seats: readonly string[]) => void;
  /** The agent endpoint's URL once listening, and the server's base URL for browsers (`http://host:port`). */
  onListening?: (url: string, httpUrl: string) => void;
  /** A person's turn deadline on `human` seats (`--human-deadline`; default: the run's turn deadline). */
  humanDeadlineMs?: number;
  /** How long a `human` seat's link waits for the person to open it (default 30 min). */
  humanJoinTtlMs?: number;
  /** How long a seat token waits for its first join (default: 60 s local, 30 min remote). */
  tokenTtlMs?: number;
  /**
   * How long a dropped seat may rejoin (default: 10 s remote; locally RECOVERY_GRACE_MS, the time a
   * replacement process has to take over the seat of one that died — see supervisor/seat-supervisor.ts).
   */
  reconnectGraceMs?: number;
  /** Remote hosting: count the usage remote agents report in the cost estimate (`--trust-remote-usage`). */
  trustRemoteUsage?: boolean;
  /** Stops launching episodes; in-flight ones are dropped unrecorded so a rerun redoes them. */
  signal?: AbortSignal;
  /** Browser origins allowed besides the server's own (`--allow-origin`; net/origin-guard.ts). */
  allowOrigins?: readonly string[];
}

/** What hosting needs from the run around it. */
export interface HostingContext {
  config: RunConfig;
  /** The simulation protocol every episode follows (resolved: defaults filled in). */
  protocol: SimulationProtocol;
  runId: string;
  paths: RunPaths;
  clock: Clock;
  /** Notices (through the progress reporter, so they do not tear its status line). */
  say: (line: string) => void;
  /** Called with each finished episode's record, in finishing order. */
  record: (r: EpisodeRecord) => void;
  probes: RunProbes;
}

/**
 * Hosts and runs `pending` episodes: an agent endpoint on a loopback (or given) port, and either the
 * local agent process pool with `concurrency` episodes in flight, or every seat reserved up front for
 * remote agents. Returns when every episode has ended (or the run was interrupted).
 */
export async function hostEpisodes(pending: readonly EpisodePlan[], ctx: HostingContext, opts: HostingOptions): Promise<void> {
  const { config, clock, say, probes } = ctx;
  const remote = opts.hosting === 'remote';
  const registry = new SeatRegistry({ clock, reconnectGraceMs: opts.reconnectGraceMs ?? (remote ? 10_000 : RECOVERY_GRACE_MS) });
  // The page for people at `/` (seat client), socket.io for their browsers, `ws` for agent processes:
  // one server, one upgrade router, the same connection edge behind both transports.
  let browser: ReturnType<typeof attachBrowserEndpoint> | null = null;
  const server = createHttpServer(webRoutes({ page: 'seat', socketIo: (req, res) => browser?.handleRequest(req, res) }), { allowOrigins: opts.allowOrigins ?? [], ...(opts.host ? { host: opts.host } : {}), log: say });
  const endpoint = attachAgentEndpoint(server, registry, { clock, log: say, logJoins: remote, ...probes.connection });
  browser = attachBrowserEndpoint(server, registry, { clock, log: say, logJoins: true, ...probes.connection });
  const browsers = browser;
  const limits = makeLimits(config.maxTurns, config.turnDeadlineMs);
  let pool: WorkerPool | null = null;

  /** Episodes in flight, so an interrupt can end them at once. */
  const running = new Set<Episode>();
  // Ctrl-C: close every agent connection so in-flight episodes end now (their records are dropped).
  const interrupted = new Promise<string>((resolveAbort) => {
    const onAbort = () => {
      resolveAbort('interrupted');
      endpoint.close();
      browsers.close();
      for (const e of running) for (const seat of e.links.keys()) e.seatLost(seat, 'run interrupted');
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    let port: number;
    try {
      port = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');
    } catch (err) {
      throw new Error(`cannot listen on ${opts.host ?? '127.0.0.1'}:${opts.port ?? 0}: ${(err as Error).message}`);
    }
    const wildcard = !opts.host || opts.host === '0.0.0.0' || opts.host === '::';
    // Local agent processes dial the loopback address; the printed URL is the one other machines use.
    const url = `ws://${wildcard ? '127.0.0.1' : opts.host}:${port}${AGENT_PATH}`;
    const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? publicAddress() : wildcard ? '127.0.0.1' : opts.host!;
    const httpUrl = `http://${shownHost}:${port}`;
    opts.onListening?.(`ws://${shownHost}:${port}${AGENT_PATH}`, httpUrl);
    /** Open seats (a person's): one line each, above the progress line, with the page's URL. */
    const announce = (e: Episode, seats: readonly string[]) => {
      for (const seat of seats) {
        const token = e.tokens.get(seat)!;
        say(`seat ${seat} token ${token} url ${httpUrl}/?token=${token}`);
      }
    };
    const openSeats = (p: EpisodePlan) => Object.entries(p.policies ?? {}).filter(([, c]) => isOpen(c)).map(([s]) => s);
    const humanDeadlineMs = opts.humanDeadlineMs;

    const deps = {
      registry,
      clock,
      runId: ctx.runId,
      limits,
      protocol: ctx.protocol,
      tokenTtlMs: opts.tokenTtlMs ?? (remote ? 30 * 60_000 : 60_000),
      // Remote agents report their own provenance: labelled as such, and kept out of cost unless trusted.
      ...(remote ? { reportedProvenance: opts.trustRemoteUsage ? ('trusted' as const) : ('reported' as const) } : {}),
      ledgerFor: (episodeId: string, seat: string) => new FileLedger(ctx.paths.ledgerFile(episodeId, seat)),
      ...(humanDeadlineMs !== undefined
        ? { seatDeadlineMs: (p: EpisodePlan) => Object.fromEntries(openSeats(p).map((s) => [s, humanDeadlineMs])) }
        : {}),
    };
    const tokenTtlMs = deps.tokenTtlMs;
    /** Episodes with a person's seat wait for that person to open the link (minutes, not seconds). */
    const depsFor = (p: EpisodePlan) => (openSeats(p).length ? { ...deps, tokenTtlMs: Math.max(tokenTtlMs, opts.humanJoinTtlMs ?? 30 * 60_000) } : deps);
    const hooks = probes.engine ? { hooks: probes.engine } : {};

    if (remote) {
      // Every seat is reserved up front, its token handed out, and all episodes wait for their agents.
      const episodes = pending.map((p) => Episode.prepare(p, deps));
      for (const e of episodes) {
        probes.episodePrepared?.(e);
        opts.onSeats?.(e, [...e.tokens.keys()]);
      }
      await Promise.all(episodes.map(async (e) => ctx.record(await e.run({ abort: interrupted, ...hooks }))));
    } else if (pending.length) {
      const inFlight = Math.min(config.concurrency, pending.length);
      // Only the seats the pool hosts count: open (human) seats are taken by people.
      const hostedSeats = pending.map((p) => liveSeats({ episodeId: '', scenario: p.scenario, mode: p.mode, limits }).length - openSeats(p).length);
      const seatsPerEpisode = Math.max(1, ...hostedSeats);
      const seatsPerWorker = config.pool.multiplex ? Math.max(1, config.pool.seatsPerProcess) : 1;
      const poolSize = poolSizeFor(inFlight, seatsPerEpisode, seatsPerWorker);
      // Every seat open (people only): no agent process to start, the links are printed at once.
      const localPool = hostedSeats.some((n) => n > 0)
        ? new WorkerPool({
            size: poolSize,
            seatsPerWorker,
            niceness: WORKER_NICENESS,
            warm: distinctPolicies(pending),
            log: say,
            ...(probes.workerEntry ? { workerPath: probes.workerEntry } : {}),
          })
        : null;
      pool = localPool;
      if (localPool) {
        say(`starting ${poolSize} agent process(es)${seatsPerWorker > 1 ? ` (up to ${seatsPerWorker} seats each, never two of one episode)` : ''} for ${pending.length} episode(s), ${inFlight} at a time`);
        await localPool.start();
        probes.poolStarted?.(localPool);
      }
      await forEachConcurrent(pending, inFlight, opts.signal, async (plan) => {
        const episode = Episode.prepare(plan, depsFor(plan));
        probes.episodePrepared?.(episode);
        const open = openSeats(plan);
        if (opts.onSeats) {
          if (open.length) opts.onSeats(episode, open);
        } else announce(episode, open);
        // Seats go to processes hosting no other seat of this episode; a seat whose process dies is
        // re-established on a fresh one (or the episode fails with the reason): seat-supervisor.ts.
        running.add(episode);
        try {
          const hosted = localPool ? await hostEpisode(episode, localPool, { url, log: say }) : null;
          ctx.record(await episode.run({
            abort: interrupted,
            ...(hosted ? { hostPids: hosted.hostPids, onSeatEvent: (e) => hosted.onSeatEvent(e), recoveries: hosted.recoveries } : {}),
            ...hooks,
          }));
          // Not awaited: the lane moves on at once; the pool frees each seat's slot when its worker
          // reports the release, and settle() replaces a worker that never does.
          if (hosted) void hosted.settle();
        } finally {
          running.delete(episode);
        }
      });
    }
  } finally {
    endpoint.close();
    browsers.close();
    await Promise.all([pool?.close(), closeServer(server)]);
  }
}

/**
 * Agent processes run one step below the orchestrator's CPU priority: the orchestrator is the one
 * process every turn of every episode passes through, so under load it goes first (its time per turn
 * stays flat); agent processes mostly wait on their LLM anyway.
 */
const WORKER_NICENESS = Number(process.env.PARLEY_WORKER_NICE ?? 19);

/** Each distinct policy the pending episodes use (what every agent process loads before its first seat). */
function distinctPolicies(plans: readonly EpisodePlan[]): PolicyConfig[] {
  const seen = new Map<string, PolicyConfig>();
  for (const p of plans) for (const c of Object.values(p.policies ?? {})) if (!isOpen(c)) seen.set(JSON.stringify(c), c);
  return [...seen.values()];
}

/** Runs `fn` over items with at most `limit` in flight; stops taking new items once `signal` aborts. */
async function forEachConcurrent<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !signal?.aborted) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** This machine's first non-loopback IPv4 address (what another machine dials), else its host name. */
function publicAddress(): string {
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return hostname();
}
