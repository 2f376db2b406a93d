import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ErrorCode, type PolicyConfig } from '../protocol/index.js';
import { codeVersion, EpisodeHost, SCRIPT_SEAT, type EpisodePlan } from '../orchestrator/run/index.js';
import { EpisodeJob, EpisodeResult, QUEUE_NAME, RunSpec, runSpecKey } from './jobs.js';
import { bullConnection, redactUrl } from './redis-url.js';
import { RedisOutage } from './redis-outage.js';
import { checkEpisodeJob, checkJobSeats, checkRunSpec, type WorkerTrust } from './job-guard.js';
import { SHARED_LIMIT_ENV } from '../llm/shared-limit.js';
import { workerTiming } from './worker-timing.js';
import { acquireRunLock, readEpisodeFiles, RunPaths, type RunLock } from '../run-dir/index.js';

export interface QueueWorkerOptions {
  url: string;
  /** Episodes run at once by this worker. */
  concurrency: number;
  /** >1: one agent process may host seats of different episodes at once. */
  seatsPerProcess: number;
  log: (line: string) => void;
  /**
   * How long a job's lock lasts without renewal (BullMQ `lockDuration`; the stalled-job check runs at
   * the same period). A worker that dies is noticed after at most about twice this and its episodes go
   * to other workers. Default 30 s; `PARLEY_QUEUE_LOCK_MS` overrides it.
   */
  lockMs?: number;
  workerPath?: string;
  /**
   * How long `stop()` may wait for the episodes in hand and for Redis before it abandons them (default
   * 5 s, `PARLEY_WORKER_STOP_MS`): a worker is gone within 10 s of SIGTERM whatever state Redis is in.
   */
  stopMs?: number;
  /** Endpoints and key variables a job may name (default: none: every job uses the worker's own provider settings). */
  trust?: WorkerTrust;
}

/** A running `parley worker`: `stop()` finishes the jobs in hand (graceful) or, forced, returns them. */
export interface QueueWorker {
  /** Resolves once stopped. */
  readonly done: Promise<void>;
  stop(force?: boolean): Promise<void>;
}

/** A stalled job (its worker died) is handed out again this many times before it counts as failed. */
const MAX_STALLED = 3;

/**
 * A run's configuration, read from Redis once per run and checked against what this worker trusts (a refused
 * one fails its jobs unrecoverably; one not read is tried again by the next job).
 */
function runSpecCache(redis: Redis, trust: WorkerTrust): (runKey: string) => Promise<RunSpec> {
  const specs = new Map<string, Promise<RunSpec>>();
return (runKey: string): Promise<RunSpec> => {
  let p = specs.get(runKey);
  if (!p) {
    p = redis.get(runSpecKey(runKey)).then((text) => {
      if (text === null) throw new Error(`run ${runKey}: its configuration is not in Redis (deleted, or another Redis database)`);
      const parsed = RunSpec.parse(JSON.parse(text));
      const checked = checkRunSpec(parsed, trust);
      if (!checked.ok) throw new UnrecoverableError(`${checked.code}: ${checked.message}`);
      return parsed;
    });
    p.catch(() => specs.delete(runKey));
    specs.set(runKey, p);
  }
  return p;
};
}

/**
 * Stopping: graceful (BullMQ takes no more jobs and waits for the ones in hand) or forced, and, once `stopMs`
 * passes, a hard stop that does not wait for Redis.
 */
function stopControl(ctx: {
  worker: Worker;
  redis: Redis;
  host: () => Promise<EpisodeHost> | null;
  stopping: AbortController;
  stopMs: number;
  log: (line: string) => void;
}): QueueWorker {
  const { worker, redis, host, stopping, stopMs, log } = ctx;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let closing: Promise<void> | null = null;
  let deadline: NodeJS.Timeout | null = null;
  /**
   * The last resort once the stop deadline passes: BullMQ's close waits on Redis, which may be gone, so
   * the episodes in hand are aborted (their jobs go back to the queue through the stalled check), the
   * agent processes stopped, and every Redis connection dropped, without waiting for Redis.
   */
  const hardStop = async () => {
    stopping.abort();
    void worker.close(true).catch(() => {});
    void worker.disconnect().catch(() => {});
    redis.disconnect();
    const h = await host()?.catch(() => null);
    await h?.close().catch(() => {});
    resolveDone();
  };
  return {
    done,
    stop(force = false) {
      if (force) stopping.abort();
      deadline ??= setTimeout(() => {
        log(`stop: not finished within ${stopMs} ms; the episodes in hand go back to the queue`);
        void hardStop();
      }, force ? 0 : stopMs);
      const previous = closing;
      closing = (async () => {
        // Graceful: BullMQ stops taking jobs and waits for the ones in hand. Forced: the episodes in
        // hand are ended unrecorded and their jobs left to the stalled check (another worker reruns them).
        await Promise.all([worker.close(force), previous]);
        const h = await host()?.catch(() => null);
        await h?.close();
        redis.disconnect();
        if (deadline) clearTimeout(deadline);
        resolveDone();
      })();
      return Promise.race([closing, done]);
    },
  };
}

/** Says a Redis outage once (and its end), and each stalled or failed job. */
function logWorkerEvents(worker: Worker, redis: Redis, url: string, log: (line: string) => void): void {
  const outage = new RedisOutage('worker', redactUrl(url), log);
  worker.on('error', (err) => outage.error(err));
  redis.on('error', (err: Error) => outage.error(err));
  redis.on('ready', () => outage.ready());
  // BullMQ's blocking client reconnects by itself; its 'ready' is the sign that jobs flow again.
  worker.on('ready', () => outage.ready());
  // BullMQ emits 'completed' once the job was moved to completed in Redis: Redis answered.
  worker.on('completed', () => outage.answered());
  worker.on('stalled', (jobId) => log(`job ${jobId} stalled (its worker stopped answering): back in the queue`));
  worker.on('failed', (job, err) => log(`job ${job?.id ?? '?'} failed here: ${err.message}`));
}

/**
 * Takes episode jobs from the queue and runs each with every local guarantee: its seats on this
 * machine's agent processes (never two seats of one episode in one process), ledgers, crash recovery.
 * Each episode runs in a scratch directory of its own and its files travel back in the job's result,
 * so an episode whose worker dies leaves nothing behind: the next worker starts it from scratch and the
 * coordinator writes only what a completed job returned.
 */
export async function startQueueWorker(opts: QueueWorkerOptions): Promise<QueueWorker> {
  // Agent processes inherit this: their provider limits go through Redis, shared by every worker.
  process.env[SHARED_LIMIT_ENV] = opts.url;
  const scratchRoot = prepareScratch();
  const trust: WorkerTrust = opts.trust ?? { endpoints: [], keyEnvs: [] };
  const redis = new Redis(opts.url, { maxRetriesPerRequest: 3 });
  let host: Promise<EpisodeHost> | null = null;
  const stopping = new AbortController();
  const code = codeVersion();
  // What this worker applies of what the workers decide: the coordinator records it in run.json.
  const settings = { concurrency: opts.concurrency, pool: { multiplex: opts.seatsPerProcess > 1, seatsPerProcess: opts.seatsPerProcess } };

  const specOf = runSpecCache(redis, trust);

  const hostFor = (spec: RunSpec): Promise<EpisodeHost> => {
    host ??= EpisodeHost.start({
      log: opts.log,
      // Local agent processes only: no browser page, no remote agents (the queue refuses human seats).
      pool: {
        concurrency: opts.concurrency,
        seatsPerEpisode: Math.max(2, ...spec.scenarios.map((s) => s.seats.length)),
        seatsPerProcess: opts.seatsPerProcess,
        warm: spec.policies,
        ...(opts.workerPath ? { workerPath: opts.workerPath } : {}),
      },
    }).then(
      (h) => {
        opts.log(`worker ${process.pid}: agent processes ${h.pids.join(',')}`);
        return h;
      },
      (err: Error) => {
        // Not cached: the next job tries again (its own attempt fails and BullMQ retries it later).
        host = null;
        opts.log(`worker ${process.pid}: agent processes did not start (${err.message})`);
        throw err;
      },
    );
    return host;
  };

  const processJob = async (job: Job): Promise<EpisodeResult> => {
    // Redis schedules; it grants nothing. A job outside the grammar the coordinator writes is refused
    // unrun (never retried), before any file, process or request is made for it.
    const shape = EpisodeJob.safeParse(job.data);
    if (!shape.success) throw new UnrecoverableError(`${ErrorCode.BadJob}: job does not match the episode job schema`);
    const data = shape.data;
    const checked = checkEpisodeJob(data, trust);
    if (!checked.ok) throw new UnrecoverableError(`${checked.code}: ${checked.message}`);
    const spec = await specOf(data.runKey);
    const scenario = jobScenario(data, spec);
    const h = await hostFor(spec);
    return inScratchRun(scratchRoot, opts.log, async (lock) => {
      const cassetteDir = lock.paths.cassettesDir;
      const policies: Record<string, PolicyConfig> = Object.create(null) as Record<string, PolicyConfig>;
      for (const [seat, p] of Object.entries(data.policies)) policies[seat] = { ...p, cassetteDir };
      const plan: EpisodePlan = { episodeId: data.episodeId, scenario, mode: data.mode, repeat: data.repeat, ...(data.draw ? { draw: data.draw } : {}), policies };
      const record = await h.run(plan, { runId: spec.runId, lock, maxTurns: spec.maxTurns, turnDeadlineMs: spec.turnDeadlineMs, protocol: spec.protocol, signal: stopping.signal });
      if (stopping.signal.aborted) throw new Error('worker stopped mid-episode; the episode runs again elsewhere');
      const pids = [...record.seats, ...(record.scriptWriter ? [record.scriptWriter] : [])].flatMap((s) => s.pids ?? (s.pid !== null ? [s.pid] : []));
      opts.log(`done ${data.episodeId} (${record.status}; agent pids ${[...new Set(pids)].join(',')})`);
      return { record, files: readEpisodeFiles(lock.paths), worker: { host: hostname(), pid: process.pid, agentPids: h.pids, code, settings } };
    });
  };

  /** How long a graceful stop may take before the episodes in hand are abandoned (they run elsewhere later). */
  const timing = workerTiming();
  const stopMs = opts.stopMs ?? timing.stopMs;
  const lockMs = opts.lockMs ?? timing.lockMs;
  const worker = new Worker(QUEUE_NAME, processJob, {
    connection: bullConnection(opts.url),
    concurrency: opts.concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: MAX_STALLED,
  });
  logWorkerEvents(worker, redis, opts.url, opts.log);
  await worker.waitUntilReady();

  return stopControl({ worker, redis, host: () => host, stopping, stopMs, log: opts.log });
}

/**
 * This worker's scratch directory (`<tmp>/parley-worker-<pid>`), after removing those of workers on this
 * machine that are gone (killed mid-episode: what they left is an attempt that never counted).
 */
function prepareScratch(): string {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^parley-worker-(\d+)$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  const root = join(tmpdir(), `parley-worker-${process.pid}`);
  mkdirSync(root, { recursive: true });
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The job's scenario from its run spec, with a policy for exactly its seats (a job lacking one would hold
 * a worker slot until the seat's join deadline): refused unrun otherwise.
 */
function jobScenario(data: EpisodeJob, spec: RunSpec): RunSpec['scenarios'][number] {
  const scenario = spec.scenarios.find((s) => s.id === data.scenarioId);
  if (!scenario) throw new Error(`run ${data.runKey}: scenario ${data.scenarioId} is not in its configuration`);
  const seated = checkJobSeats(data, data.mode === 'script' ? [SCRIPT_SEAT] : scenario.seats.map((s) => s.seat));
  if (!seated.ok) throw new UnrecoverableError(`${seated.code}: ${seated.message}`);
  return scenario;
}

/**
 * Runs one job in a scratch copy of a run directory, removed afterwards: a run directory of its own, whose
 * ledgers are written under its lock as a run's are (run-dir/ledger-file.ts).
 */
async function inScratchRun<T>(scratchRoot: string, log: (line: string) => void, job: (lock: RunLock) => Promise<T>): Promise<T> {
  const scratch = mkdtempSync(join(scratchRoot, 'job-'));
  try {
    const lock = await acquireRunLock(new RunPaths(scratch), { command: 'worker', log });
    try {
      return await job(lock);
    } finally {
      lock.release();
    }
  } finally {
    // Off the event loop: a removal waits on the file system (rmdir took 3-25 ms of wall each here on a
    // busy disk, a fifth of a worker's samples in test/system/queue.test.ts), and the other episodes in
    // hand would wait with it.
    await rm(scratch, { recursive: true, force: true });
  }
}
