import { hostname } from 'node:os';
import { basename, resolve } from 'node:path';
import type { EpisodeRecord, PolicyConfig } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { systemClock, type Clock } from '../clock.js';
import type { EngineHooks } from '../engine/engine-types.js';
import { Episode } from '../episode.js';
import type { EpisodePlan } from '../episode-plan.js';
import { FileLedger, ledgerPath } from '../ledger.js';
import type { ConnectionOptions } from '../net/agent-connection.js';
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
import { codeVersion } from './code-version.js';
import { planEpisodes } from './plan.js';
import { promptTemplates } from './prompt-files.js';
import { ProgressReporter, type StatusTerminal } from './progress-reporter.js';
import { prepareResume } from './resume.js';
import { RunFiles } from './run-files.js';
import { acquireRunLock } from './run-lock.js';
import { loadRunScenarios } from './scenario-source.js';
import { computeStats, type RunStats } from './stats.js';

export interface DriverOptions {
  /** Progress and notices, one line each (never scenario content). */
  log: (line: string) => void;
  /** `local`: the supervisor's agent processes host every seat; `remote`: agents dial in with printed tokens. */
  hosting: 'local' | 'remote';
  port?: number;
  host?: string;
  /** Remote hosting: each prepared episode, so its tokens can be handed out (serve prints them). */
  onSeats?: (episode: Episode) => void;
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
  connection?: ConnectionOptions;
  /** Remote hosting: count the usage remote agents report in the cost estimate (`--trust-remote-usage`). */
  trustRemoteUsage?: boolean;
  /** Test hook: another agent process entry. */
  workerPath?: string;
  clock?: Clock;
  /** Stops launching episodes; in-flight ones are dropped unrecorded so a rerun redoes them. */
  signal?: AbortSignal;
  /** A terminal (stdout is a TTY): progress is one refreshing status line; otherwise plain lines. */
  tty?: StatusTerminal;
  /** Period of the progress summary line (plain) or redraw (TTY). */
  progressIntervalMs?: number;
  /** How long to wait for another orchestrator holding the run directory (default 15 s). */
  lockWaitMs?: number;
  /** Instrumentation of the turn loop (benchmark, tests). */
  engineHooks?: EngineHooks;
  /** Each episode once prepared (tests, benchmark). */
  onEpisode?: (episode: Episode) => void;
  /** The local agent process pool once started (benchmark: memory sampling). */
  onPool?: (pool: WorkerPool) => void;
}

export interface RunResult {
  dir: string;
  runId: string;
  /** Every record of the run directory after this invocation (earlier ones included). */
  records: EpisodeRecord[];
  /** Records written by this invocation. */
  ran: EpisodeRecord[];
  /** Planned episodes already recorded and skipped. */
  skipped: number;
  planned: number;
  stats: RunStats;
}

/**
 * Runs an experiment into a run directory: loads and filters scenarios, expands episodes, skips those
 * already recorded (resume), hosts seats (local agent processes or remote agents), runs episodes with
 * `concurrency` in flight, appends each record as it finishes, and writes run.json with the stats.
 */
export async function runExperiment(input: RunConfig, opts: DriverOptions): Promise<RunResult> {
  const clock = opts.clock ?? systemClock;
  const files = new RunFiles(resolve(input.out));
  const config = opts.hosting === 'remote' ? asRemote(input) : withRunDirs(input, files);
  // Scenarios first: a run that cannot start leaves nothing behind.
  const scenarios = await loadRunScenarios(config);
  files.ensure();
  const lock = await acquireRunLock(files.dir, { log: opts.log, ...(opts.lockWaitMs !== undefined ? { waitMs: opts.lockWaitMs } : {}) });
  try {
    return await runLocked(input, config, scenarios, files, opts, clock);
  } finally {
    lock.release();
  }
}

async function runLocked(input: RunConfig, config: RunConfig, scenarios: Scenario[], files: RunFiles, opts: DriverOptions, clock: Clock): Promise<RunResult> {
  const remote = opts.hosting === 'remote';
  // Remote seats bring their own policy: it is recorded from what each agent reports at join.
  const plans = planEpisodes(scenarios, config).map((p) => (remote ? { ...p, policies: undefined } : p));
  const { pending } = prepareResume(files, plans, { retryFailed: config.retryFailed, log: opts.log });
  const skipped = plans.length - pending.length;
  if (skipped) opts.log(`resuming: ${skipped} of ${plans.length} episode(s) already recorded`);

  const previousRun = files.readRunJson();
  const runId = typeof previousRun?.runId === 'string' ? previousRun.runId : basename(files.dir);
  const startedAt = new Date().toISOString();
  const usedScenarios = uniqueScenarios(plans);
  files.writeScenarios(usedScenarios);
  const runJson = (extra: Record<string, unknown>) => ({
    runId,
    /** The orchestrator's pid, at the top level where isolation audits look for it (also in `orchestrator`). */
    pid: process.pid,
    code: codeVersion(),
    orchestrator: { pid: process.pid, node: process.version, host: hostname() },
    /** local: seats played by the supervisor's agent processes; remote: by agents that dialled in (serve). */
    hosting: opts.hosting,
    config: input,
    prompts: promptTemplates([...(plans.some((p) => p.mode !== 'script') ? config.agents : []), ...(plans.some((p) => p.mode === 'script') ? [config.scriptWriter] : [])]),
    scenarioSet: { source: config.scenarios, subset: config.subset ?? null, seed: config.seed, count: usedScenarios.length, ids: usedScenarios.map((s) => s.id) },
    episodes: { planned: plans.length, alreadyRecorded: skipped },
    startedAt,
    ...extra,
  });
  files.writeRunJson(runJson({ endedAt: null, stats: null }));

  const progress = new ProgressReporter({
    total: plans.length,
    alreadyDone: skipped,
    log: opts.log,
    ...(opts.tty ? { tty: opts.tty } : {}),
    ...(opts.progressIntervalMs !== undefined ? { intervalMs: opts.progressIntervalMs } : {}),
  });
  const say = (line: string) => progress.notice(line);
  const registry = new SeatRegistry({ clock, reconnectGraceMs: opts.reconnectGraceMs ?? (remote ? 10_000 : RECOVERY_GRACE_MS) });
  // The page for people at `/` (seat client), socket.io for their browsers, `ws` for agent processes:
  // one server, one upgrade router, the same connection edge behind both transports.
  let browser: ReturnType<typeof attachBrowserEndpoint> | null = null;
  const server = createHttpServer(webRoutes({ page: 'seat', socketIo: (req, res) => browser?.handleRequest(req, res) }));
  const endpoint = attachAgentEndpoint(server, registry, { clock, log: say, logJoins: remote, ...opts.connection });
  browser = attachBrowserEndpoint(server, registry, { clock, log: say, logJoins: true, ...opts.connection });
  const browsers = browser;
  const limits = makeLimits(config.maxTurns, config.turnDeadlineMs);
  const tokenTtlMs = opts.tokenTtlMs ?? (remote ? 30 * 60_000 : 60_000);
  let pool: WorkerPool | null = null;
  const ran: EpisodeRecord[] = [];

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
    const port = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');
    const dialHost = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
    const url = `ws://${dialHost}:${port}${AGENT_PATH}`;
    const httpUrl = `http://${dialHost}:${port}`;
    opts.onListening?.(url, httpUrl);
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
      runId,
      limits,
      tokenTtlMs,
      ...(remote ? { reportedProvenance: opts.trustRemoteUsage ? ('trusted' as const) : ('reported' as const) } : {}),
      ledgerFor: (episodeId: string, seat: string) => new FileLedger(ledgerPath(files.dir, episodeId, seat)),
      ...(humanDeadlineMs !== undefined
        ? { seatDeadlineMs: (p: EpisodePlan) => Object.fromEntries(openSeats(p).map((s) => [s, humanDeadlineMs])) }
        : {}),
    };
    /** Episodes with a person's seat wait for that person to open the link (minutes, not seconds). */
    const depsFor = (p: EpisodePlan) => (openSeats(p).length ? { ...deps, tokenTtlMs: Math.max(tokenTtlMs, opts.humanJoinTtlMs ?? 30 * 60_000) } : deps);
    const record = (r: EpisodeRecord) => {
      if (opts.signal?.aborted) return;
      files.appendEpisode(r);
      ran.push(r);
      progress.episode(r);
    };
    const hooks = opts.engineHooks ? { hooks: opts.engineHooks } : {};

    if (remote) {
      // Every seat is reserved up front, its token handed out, and all episodes wait for their agents.
      const episodes = pending.map((p) => Episode.prepare(p, deps));
      for (const e of episodes) {
        opts.onEpisode?.(e);
        opts.onSeats?.(e);
      }
      await Promise.all(episodes.map(async (e) => record(await e.run({ abort: interrupted, ...hooks }))));
    } else if (pending.length) {
      const inFlight = Math.min(config.concurrency, pending.length);
      // Only the seats the pool hosts count: open (human) seats are taken by people.
      const hostedSeats = pending.map((p) => liveSeats({ episodeId: '', scenario: p.scenario, mode: p.mode, limits }).length - openSeats(p).length);
      const seatsPerEpisode = Math.max(1, ...hostedSeats);
      const seatsPerWorker = config.pool.multiplex ? Math.max(1, config.pool.seatsPerProcess) : 1;
      const poolSize = poolSizeFor(inFlight, seatsPerEpisode, seatsPerWorker);
      // Every seat open (people only): no agent process to start, the links are printed at once.
      const localPool = hostedSeats.some((n) => n > 0) ? new WorkerPool({
        size: poolSize,
        seatsPerWorker,
        niceness: WORKER_NICENESS,
        warm: distinctPolicies(pending),
        log: say,
        ...(opts.workerPath ? { workerPath: opts.workerPath } : {}),
      }) : null;
      pool = localPool;
      if (localPool) {
        say(`starting ${poolSize} agent process(es)${seatsPerWorker > 1 ? ` (up to ${seatsPerWorker} seats each, never two of one episode)` : ''} for ${pending.length} episode(s), ${inFlight} at a time`);
        await localPool.start();
        opts.onPool?.(localPool);
      }
      await forEachConcurrent(pending, inFlight, opts.signal, async (plan) => {
        const episode = Episode.prepare(plan, depsFor(plan));
        opts.onEpisode?.(episode);
        announce(episode, openSeats(plan));
        // Seats go to processes hosting no other seat of this episode; a seat whose process dies is
        // re-established on a fresh one (or the episode fails with the reason): seat-supervisor.ts.
        running.add(episode);
        try {
          const hosted = localPool ? await hostEpisode(episode, localPool, { url, log: say }) : null;
          record(await episode.run({
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
    progress.close();
    endpoint.close();
    browsers.close();
    await Promise.all([pool?.close(), closeServer(server)]);
  }

  const records = files.readEpisodes().records;
  const stats = computeStats(records);
  files.writeRunJson(runJson({ endedAt: new Date().toISOString(), interrupted: opts.signal?.aborted ?? false, stats }));
  return { dir: files.dir, runId, records, ran, skipped, planned: plans.length, stats };
}

/**
 * Agent processes run one step below the orchestrator's CPU priority: the orchestrator is the one
 * process every turn of every episode passes through, so under load it goes first (its time per turn
 * stays flat); agent processes mostly wait on their LLM anyway.
 */
const WORKER_NICENESS = Number(process.env.PARLEY_WORKER_NICE ?? 19);

/** Remote seats: the policy is the agent's business; episode ids say `remote` instead of a spec. */
function asRemote(config: RunConfig): RunConfig {
  return { ...config, agents: [{ spec: 'remote', params: {} }], scriptWriter: { spec: 'remote', params: {} } };
}

/** Local seats record LLM traffic under the run's `cassettes/`; `--replay` answers from a recorded run. */
function withRunDirs(config: RunConfig, files: RunFiles): RunConfig {
  // The LLM layer finds the cassettes under a run directory (llm/cassette.ts cassetteRoot).
  const replayDir = config.replay ? resolve(config.replay) : undefined;
  const dirs = (p: PolicyConfig): PolicyConfig => ({ ...p, cassetteDir: p.cassetteDir ?? files.cassettesDir, ...(replayDir ? { replayDir } : {}) });
  return { ...config, agents: config.agents.map(dirs), scriptWriter: dirs(config.scriptWriter) };
}

/** Each distinct policy the pending episodes use (what every agent process loads before its first seat). */
function distinctPolicies(plans: readonly EpisodePlan[]): PolicyConfig[] {
  const seen = new Map<string, PolicyConfig>();
  for (const p of plans) for (const c of Object.values(p.policies ?? {})) if (!isOpen(c)) seen.set(JSON.stringify(c), c);
  return [...seen.values()];
}

function uniqueScenarios(plans: readonly EpisodePlan[]): Scenario[] {
  const seen = new Map<string, Scenario>();
  for (const p of plans) if (!seen.has(p.scenario.id)) seen.set(p.scenario.id, p.scenario);
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
