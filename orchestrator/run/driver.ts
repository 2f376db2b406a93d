import { hostname } from 'node:os';
import { basename, resolve } from 'node:path';
import type { EpisodeRecord, PolicyConfig } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { systemClock, type Clock } from '../clock.js';
import { Episode } from '../episode.js';
import type { EpisodePlan } from '../episode-plan.js';
import { FileLedger, ledgerPath } from '../ledger.js';
import type { ConnectionOptions } from '../net/agent-connection.js';
import { closeServer, createHttpServer, listen } from '../net/http-server.js';
import { AGENT_PATH, attachAgentEndpoint } from '../net/ws-endpoint.js';
import type { RunConfig } from '../run-config.js';
import { SeatRegistry } from '../seat-registry.js';
import { WorkerPool } from '../supervisor/worker-pool.js';
import { liveSeats, makeLimits } from '../world.js';
import { codeVersion } from './code-version.js';
import { planEpisodes } from './plan.js';
import { promptTemplates } from './prompt-files.js';
import { formatProgress } from './progress.js';
import { RunFiles } from './run-files.js';
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
  /** The agent endpoint's URL once listening. */
  onListening?: (url: string) => void;
  /** How long a seat token waits for its first join (default: 60 s local, 30 min remote). */
  tokenTtlMs?: number;
  /** How long a dropped seat may rejoin (default: 0 local, 10 s remote). */
  reconnectGraceMs?: number;
  connection?: ConnectionOptions;
  /** Test hook: another agent process entry. */
  workerPath?: string;
  clock?: Clock;
  /** Stops launching episodes; in-flight ones are dropped unrecorded so a rerun redoes them. */
  signal?: AbortSignal;
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
  const remote = opts.hosting === 'remote';
  const config = remote ? asRemote(input) : withRunDirs(input, files);
  // Scenarios first: a run that cannot start leaves nothing behind.
  const scenarios = await loadRunScenarios(config);
  files.ensure();
  // Remote seats bring their own policy: it is recorded from what each agent reports at join.
  const plans = planEpisodes(scenarios, config).map((p) => (remote ? { ...p, policies: undefined } : p));

  const previous = files.readEpisodes();
  if (previous.badLines.length) opts.log(`episodes.jsonl: skipping unreadable line(s) ${previous.badLines.join(', ')}`);
  let kept = previous.records;
  if (config.retryFailed) {
    const failed = kept.filter((r) => r.status === 'failed').length;
    if (failed) {
      kept = kept.filter((r) => r.status !== 'failed');
      files.rewriteEpisodes(kept);
      opts.log(`retrying ${failed} failed episode(s)`);
    }
  }
  const done = new Set(kept.map((r) => r.episodeId));
  const pending = plans.filter((p) => !done.has(p.episodeId));
  const skipped = plans.length - pending.length;
  if (skipped) opts.log(`resuming: ${skipped} of ${plans.length} episode(s) already recorded`);

  const runId = typeof files.readRunJson()?.runId === 'string' ? (files.readRunJson()!.runId as string) : basename(files.dir);
  const startedAt = new Date().toISOString();
  const usedScenarios = uniqueScenarios(plans);
  files.writeScenarios(usedScenarios);
  const runJson = (extra: Record<string, unknown>) => ({
    runId,
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

  const registry = new SeatRegistry({ clock, reconnectGraceMs: opts.reconnectGraceMs ?? (remote ? 10_000 : 0) });
  const server = createHttpServer();
  const endpoint = attachAgentEndpoint(server, registry, { clock, log: (l) => opts.log(l), logJoins: remote, ...opts.connection });
  const limits = makeLimits(config.maxTurns, config.turnDeadlineMs);
  const tokenTtlMs = opts.tokenTtlMs ?? (remote ? 30 * 60_000 : 60_000);
  let pool: WorkerPool | null = null;
  const ran: EpisodeRecord[] = [];

  // Ctrl-C: close every agent connection so in-flight episodes end now (their records are dropped).
  const interrupted = new Promise<string>((resolveAbort) => {
    const onAbort = () => {
      resolveAbort('interrupted');
      endpoint.close();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const port = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');
    const dialHost = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
    const url = `ws://${dialHost}:${port}${AGENT_PATH}`;
    opts.onListening?.(url);

    const deps = {
      registry,
      clock,
      runId,
      limits,
      tokenTtlMs,
      ledgerFor: (episodeId: string, seat: string) => new FileLedger(ledgerPath(files.dir, episodeId, seat)),
    };
    let finished = 0;
    const record = (r: EpisodeRecord) => {
      if (opts.signal?.aborted) return;
      files.appendEpisode(r);
      ran.push(r);
      finished += 1;
      opts.log(formatProgress(skipped + finished, plans.length, r));
    };

    if (remote) {
      // Every seat is reserved up front, its token handed out, and all episodes wait for their agents.
      const episodes = pending.map((p) => Episode.prepare(p, deps));
      for (const e of episodes) opts.onSeats?.(e);
      await Promise.all(episodes.map(async (e) => record(await e.run({ abort: interrupted }))));
    } else if (pending.length) {
      const inFlight = Math.min(config.concurrency, pending.length);
      const seatsPerEpisode = Math.max(...pending.map((p) => liveSeats({ episodeId: '', scenario: p.scenario, mode: p.mode, limits }).length));
      const seatsPerWorker = config.pool.multiplex ? Math.max(1, config.pool.seatsPerProcess) : 1;
      const poolSize = Math.ceil((inFlight * seatsPerEpisode) / seatsPerWorker);
      pool = new WorkerPool({
        size: poolSize,
        seatsPerWorker,
        log: (l) => opts.log(l),
        ...(opts.workerPath ? { workerPath: opts.workerPath } : {}),
      });
      opts.log(`starting ${poolSize} agent process(es) for ${pending.length} episode(s), ${inFlight} at a time`);
      await pool.start();
      const localPool = pool;
      await forEachConcurrent(pending, inFlight, opts.signal, async (plan) => {
        const episode = Episode.prepare(plan, deps);
        const hosted = await Promise.all(
          [...episode.tokens].map(async ([seat, token]) => {
            const h = await localPool.host({ episodeId: plan.episodeId, url, token, policy: plan.policies![seat]! });
            return [seat, h] as const;
          }),
        );
        const abort = Promise.race([interrupted, ...hosted.map(([seat, h]) => h.released.then((r) => `seat ${seat}: ${r.error ?? 'agent released the seat'}`))]);
        record(await episode.run({ abort, hostPids: new Map(hosted.map(([seat, h]) => [seat, h.pid])) }));
        // A worker is free again once it reports the seat released. One that does not within the grace
        // is stuck: it is replaced rather than left holding a pool slot forever.
        await Promise.all(hosted.map(async ([seat, h]) => {
          if (!(await settlesWithin(h.released, RELEASE_GRACE_MS))) {
            opts.log(`agent process ${h.pid} did not release seat ${plan.episodeId}/${seat}; replacing it`);
            localPool.retire(h.pid);
          }
        }));
      });
    }
  } finally {
    endpoint.close();
    await Promise.all([pool?.close(), closeServer(server)]);
  }

  const records = files.readEpisodes().records;
  const stats = computeStats(records);
  files.writeRunJson(runJson({ endedAt: new Date().toISOString(), interrupted: opts.signal?.aborted ?? false, stats }));
  return { dir: files.dir, runId, records, ran, skipped, planned: plans.length, stats };
}

/** How long a local worker may take to report a seat released after its episode ended. */
const RELEASE_GRACE_MS = 10_000;

function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(() => { clearTimeout(t); resolve(true); });
  });
}

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
