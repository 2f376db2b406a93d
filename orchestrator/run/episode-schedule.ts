import { policyKind, type EpisodeRecord, type PolicyConfig } from '../../protocol/index.js';
import { type SimulationProtocol } from '../../simulation/index.js';
import type { Clock } from '../clock.js';
import type { Episode } from '../episode.js';
import type { EpisodeScorer } from '../end-scores.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { RunConfig } from '../run-config.js';
import { isOpen } from '../supervisor/seat-supervisor.js';
import { liveSeats, makeLimits } from '../world.js';
import type { RunLock } from '../../run-dir/index.js';
import type { RunProbes } from './run-probes.js';
import { policiesMayUseTls } from '../../llm/tls-need.js';
import { browsersMayCome, EpisodeHost, openSeats, type HostPoolOptions } from './episode-host.js';
import type { PoolLender } from './pool-lender.js';
import { WatchHub } from '../watch/watch-hub.js';
import type { WorkerPool } from '../supervisor/worker-pool.js';
import { newWatchKey, watchGate } from '../watch/watch-key.js';

/** How the seats of a run's episodes are hosted and reached (the user-facing part of DriverOptions). */
export interface ScheduleOptions {
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
  /** How long a `human` seat's link waits for the person to open it (default TOKEN_TTL_MS.human, episode-host.ts). */
  humanJoinTtlMs?: number;
  /** How long a seat token waits for its first join (default TOKEN_TTL_MS: 60 s local, 30 min remote). */
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
  /**
   * `--watch`: serve a live watch page of the run at `/watch?key=K` (a fresh random key) and print
   * `watch url http://HOST:PORT/watch?key=K` once listening.
   */
  watch?: boolean;
  /**
   * `serve --judge`: scores each episode as it ends, before its seats are told, so each seat's
   * `episode.end` carries its own scores and the record is written judged (orchestrator/end-scores.ts).
   */
  scorer?: EpisodeScorer;
  /**
   * Local seats go on agent processes borrowed from this lender (shared with the other runs of the same
   * command: `parley multiverse`'s arms) instead of a pool the run starts and stops itself.
   */
  pools?: PoolLender;
}

/** What hosting needs from the run around it. */
export interface ScheduleContext {
  config: RunConfig;
  /** The simulation protocol every episode follows (resolved: defaults filled in). */
  protocol: SimulationProtocol;
  runId: string;
  /** The run directory's lock: the episodes' ledgers are written under it. */
  lock: RunLock;
  clock: Clock;
  /** Notices (through the progress reporter, so they do not tear its status line). */
  say: (line: string) => void;
  /** Called with each finished episode's record, in finishing order. */
  record: (r: EpisodeRecord) => void;
  /**
   * The re-draw a just-recorded episode made owed (selection first-valid), taken to be played on this
   * host and pool as soon as a lane is free (the lifecycle's OpenRun.redrawAfter). Local hosting only:
   * remote seats get their re-draws in the lifecycle's next round, with new tokens.
   */
  redrawAfter?: (r: EpisodeRecord) => EpisodePlan | undefined;
  probes: RunProbes;
}

/**
 * Plays `pending` episodes of a `run` or `serve` on one EpisodeHost (episode-host.ts): either with the
 * local agent process pool, `concurrency` episodes in flight, or with every seat reserved up front for
 * remote agents. Returns when every episode has ended (or the run was interrupted).
 */
export async function scheduleEpisodes(pending: readonly EpisodePlan[], ctx: ScheduleContext, opts: ScheduleOptions): Promise<void> {
  const { config, probes } = ctx;
  const remote = opts.hosting === 'remote';
  const pool = remote ? undefined : poolFor(pending, config, probes);
  const inFlight = Math.min(config.concurrency, pending.length);
  const key = opts.watch ? newWatchKey() : null;
  const hub = key ? new WatchHub(ctx.runId) : null;
  hub?.plan(watchRows(pending, config.maxTurns));
  const borrowed = pool && opts.pools ? await opts.pools.borrow(pool) : undefined;
  try {
    await hostEpisodes(pending, ctx, opts, { pool, borrowed: borrowed?.pool, inFlight, hub, key });
  } finally {
    borrowed?.giveBack();
  }
}

/** scheduleEpisodes on its host, with the run's pool of its own or a borrowed one. */
async function hostEpisodes(
  pending: readonly EpisodePlan[],
  ctx: ScheduleContext,
  opts: ScheduleOptions,
  h: { pool: HostPoolOptions | undefined; borrowed: WorkerPool | undefined; inFlight: number; hub: WatchHub | null; key: string | null },
): Promise<void> {
  const { config, say, probes } = ctx;
  const remote = opts.hosting === 'remote';
  const { pool, inFlight, hub, key } = h;
  const host = await EpisodeHost.start({
    log: say,
    clock: ctx.clock,
    remote,
    ...(browsersMayCome(pending, { remote, watch: key !== null, allowOrigins: opts.allowOrigins ?? [] }) ? { browsers: { allowOrigins: opts.allowOrigins ?? [] } } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(pool ? { pool } : {}),
    ...(h.borrowed ? { borrowedPool: h.borrowed } : {}),
    ...pick(opts, ['tokenTtlMs', 'humanJoinTtlMs', 'humanDeadlineMs', 'reconnectGraceMs', 'trustRemoteUsage', 'scorer']),
    ...(hub && key ? { watch: { hub, gate: watchGate(key) } } : {}),
    onListening: (url, httpUrl) => {
      // Before any episode starts, so the page can be opened while the first ones play.
      if (key) say(`watch url ${httpUrl}/watch?key=${key}`);
      opts.onListening?.(url, httpUrl);
    },
    ...(probes.connection ? { connection: probes.connection } : {}),
    ...(probes.engine ? { hooks: probes.engine } : {}),
    onPoolStarting: (size) =>
      say(`starting ${pool!.growOnDemand && size > pool!.seatsPerEpisode ? `${pool!.seatsPerEpisode} agent process(es), up to ${size} as episodes wait,` : `${size} agent process(es)`}${pool!.seatsPerProcess > 1 ? ` (up to ${pool!.seatsPerProcess} seats each, never two of one episode)` : ''} for ${pending.length} episode(s), ${inFlight} at a time`),
  });
  if (host.pool) probes.poolStarted?.(host.pool);
  if (host.pool && probes.fullPoolFirst) await host.pool.full();
  // Ctrl-C: no more joins, and in-flight episodes end now (their records are dropped).
  const interrupted = new Promise<string>((resolveAbort) => {
    const onAbort = () => {
      resolveAbort('interrupted');
      host.dropAll('run interrupted');
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const run = { runId: ctx.runId, lock: ctx.lock, maxTurns: config.maxTurns, turnDeadlineMs: config.turnDeadlineMs, protocol: ctx.protocol };
  const record = (r: EpisodeRecord) => {
    ctx.record(r);
    hub?.finished(r);
  };
  try {
    if (remote) {
      // Every seat is reserved up front, its token handed out, and all episodes wait for their agents.
      const episodes = pending.map((p) => host.prepare(p, run));
      for (const e of episodes) {
        probes.episodePrepared?.(e);
        opts.onSeats?.(e, [...e.tokens.keys()]);
      }
      await Promise.all(episodes.map(async (e) => record(await host.play(e, interrupted))));
    } else {
      await forEachConcurrent(pending, inFlight, opts.signal, async (plan, add) => {
        const episode = host.prepare(plan, run);
        probes.episodePrepared?.(episode);
        const open = openSeats(plan);
        if (opts.onSeats) {
          if (open.length) opts.onSeats(episode, open);
        } else announce(episode, open, host.httpUrl, say);
        const r = await host.play(episode, interrupted);
        record(r);
        // A short draw's re-draw is played here, on this pool, not in a later round on a new one.
        const redraw = ctx.redrawAfter?.(r);
        if (redraw) {
          hub?.plan(watchRows([redraw], config.maxTurns));
          add(redraw);
        }
      });
    }
  } finally {
    hub?.end();
    await hub?.settled();
    await host.close();
  }
}

/** The watch page's rows of planned episodes. */
const watchRows = (plans: readonly EpisodePlan[], maxTurns: number) => plans.map((p) => ({ episodeId: p.episodeId, mode: p.mode, scenario: p.scenario.codename ?? p.scenario.id, maxTurns }));

/**
 * The local pool a run needs: sized for the seats it hosts (open, human seats are taken by people), or
 * none when there is nothing to run or every seat is open (the links are printed at once).
 */
function poolFor(pending: readonly EpisodePlan[], config: RunConfig, probes: RunProbes): HostPoolOptions | undefined {
  if (!pending.length) return undefined;
  const limits = makeLimits(config.maxTurns, config.turnDeadlineMs);
  const hostedSeats = pending.map((p) => liveSeats({ episodeId: '', scenario: p.scenario, mode: p.mode, limits }).length - openSeats(p).length);
  if (!hostedSeats.some((n) => n > 0)) return undefined;
  const warm = distinctPolicies(pending);
  const inFlight = Math.min(config.concurrency, pending.length);
  const botsOnly = warm.length > 0 && warm.every((c) => policyKind(c.spec) === 'bot');
  return {
    concurrency: inFlight,
    later: pending.length - inFlight,
    seatsPerEpisode: Math.max(1, ...hostedSeats),
    seatsPerProcess: config.pool.multiplex ? Math.max(1, config.pool.seatsPerProcess) : 1,
    warm,
    // The queue's workers host whatever later jobs bring, so only a run that knows every policy says so.
    botsOnly,
    // A bench that asks for the whole pool before the first episode keeps it (fullPoolFirst).
    growOnDemand: botsOnly && !probes.fullPoolFirst && !probes.eagerPool,
    tlsFree: warm.length > 0 && !policiesMayUseTls(warm, process.env),
    ...(probes.workerEntry ? { workerPath: probes.workerEntry } : {}),
  };
}

/** Open seats (a person's): one line each, above the progress line, with the page's URL. */
function announce(e: Episode, seats: readonly string[], httpUrl: string, say: (line: string) => void): void {
  for (const seat of seats) {
    const token = e.tokens.get(seat)!;
    say(`seat ${seat} token ${token} url ${httpUrl}/?token=${token}`);
  }
}

/** The options among `keys` that are set (exactOptionalPropertyTypes: unset ones are left out). */
function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Each distinct policy the pending episodes use (what every agent process loads before its first seat). */
function distinctPolicies(plans: readonly EpisodePlan[]): PolicyConfig[] {
  const seen = new Map<string, PolicyConfig>();
  for (const p of plans) for (const c of Object.values(p.policies ?? {})) if (!isOpen(c)) seen.set(JSON.stringify(c), c);
  return [...seen.values()];
}

/**
 * Runs `fn` over a queue that may grow while it runs (`fn`'s `add`), with at most `limit` in flight; stops
 * taking new items once `signal` aborts. Rejects with the first failure, as soon as its lane ends.
 */
async function forEachConcurrent<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, fn: (item: T, add: (more: T) => void) => Promise<void>): Promise<void> {
  const queue = [...items];
  let next = 0;
  let failure: { err: unknown } | undefined;
  const lanes = new Set<Promise<void>>();
  const lane = async () => {
    while (next < queue.length && !signal?.aborted && !failure) await fn(queue[next++]!, add);
  };
  // A lane that ended on an empty queue is reopened when an item is added; a busy lane takes it after its own.
  const open = () => {
    while (lanes.size < limit && next < queue.length && !signal?.aborted && !failure) {
      const l: Promise<void> = lane()
        .catch((err: unknown) => void (failure ??= { err }))
        .finally(() => lanes.delete(l));
      lanes.add(l);
    }
  };
  const add = (more: T) => {
    queue.push(more);
    open();
  };
  open();
  while (lanes.size && !failure) await Promise.race(lanes);
  if (failure) throw failure.err;
}
