import { nanoid } from 'nanoid';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { PolicyConfig } from '../protocol/index.js';
import { codeVersion, lifecycleOptions, runLifecycle, type EpisodePlan, type OpenRun, type RunConfig, type RunExecutor, type RunResult, type StatusTerminal } from '../orchestrator/run/index.js';
import { writeEpisodeFile, type RunLock } from '../run-dir/index.js';
import { QUEUE_NAME, runSpecKey, type EpisodeResult, type RunSpec } from './jobs.js';
import { enqueue } from './enqueue.js';
import { JobCollector } from './job-collector.js';
import { bullConnection } from './redis-url.js';
import { workerFlagsFor } from './job-guard.js';
import { RedisOutage } from './redis-outage.js';
import { noteWorker, WORKER_DECIDED, workerDecidedLine } from './worker-decided-settings.js';

export interface CoordinatorOptions {
  /** Redis URL (checked reachable by the caller) and its printable form. */
  url: string;
  shown: string;
  log: (line: string) => void;
  /** Stop waiting (Ctrl-C): jobs stay queued and running on the workers; a rerun collects them. */
  signal?: AbortSignal;
  tty?: StatusTerminal;
  progressIntervalMs?: number;
  lockWaitMs?: number;
  /** How often the queue is swept for finished jobs besides its events (default 5 s). */
  sweepMs?: number;
  /** Add scenarios, modes or repeats to the experiment already in the run directory (`--extend`). */
  extend?: boolean;
}

export interface QueuedRunResult extends RunResult {
  /** Episodes whose job failed on the workers for good (a rerun tries them again). */
  lost: number;
  interrupted: boolean;
}

/**
 * `parley run --queue`: the run lifecycle (orchestrator/run/lifecycle.ts: same identity check, episode
 * ids, resume rules and run.json as a local run) with the queue as executor. It stores the run's
 * settings and scenarios in Redis once, enqueues one job per pending episode, and writes what the
 * workers hand back into the run directory — ledgers and cassettes first, then the record, so a record
 * is the commit point exactly as in a local run. Killed at any point, a rerun with the same `--out`
 * finds the same run key in run.json, re-adds nothing that is queued, and collects what finished.
 */
export async function runQueued(input: RunConfig, opts: CoordinatorOptions): Promise<QueuedRunResult> {
  return runLifecycle(input, queueExecutor(opts), lifecycleOptions(opts));
}

/** The queue executor: episodes reach workers as BullMQ jobs, results come back as job return values. */
function queueExecutor(opts: CoordinatorOptions): RunExecutor<{ lost: number }> {
  return {
    hosting: 'queue',
    command: 'run',
    notApplied: WORKER_DECIDED,
    configure(input) {
      if (input.replay) throw new Error('--replay reads a local run directory; it cannot be combined with --queue');
      // Jobs carry no replayed prefix: a worker would play a fork's episode from its first turn.
      if (input.fork) throw new Error('a fork (parley fork) replays its parent\'s ledgers on this machine; it cannot be combined with --queue');
      const unapplied = workerDecidedLine(input);
      if (unapplied) opts.log(unapplied);
      return input;
    },
    // The run's name in Redis: kept across reruns so that they find the jobs of earlier invocations, and with
    // it the workers that returned their episodes (what each applied: noteWorker).
    queueField: (previous, runId) => ({ url: opts.shown, runKey: previous?.queue?.runKey ?? newRunKey(runId), queue: QUEUE_NAME, ...(previous?.queue?.workers ? { workers: previous.queue.workers } : {}) }),
    execute: (run) => coordinate(run, opts),
  };
}

const newRunKey = (runId: string) => `${runId.replace(/[^A-Za-z0-9_-]/g, '_')}-${nanoid(8).replace(/[^A-Za-z0-9]/g, 'x')}`;

/** Enqueues the pending episodes and collects their results until none is left (or the run is interrupted). */
async function coordinate(run: OpenRun, opts: CoordinatorOptions): Promise<{ lost: number }> {
  const { manifest: m, pending } = run;
  const runKey = m.queue!.runKey;
  const policies = distinctPolicies(m.plans);
  const needs = workerFlagsFor(policies);
  if (needs.length > 0) opts.log(`workers refuse these jobs unless started with: parley worker ${needs.join(' ')}`);
  const spec: RunSpec = { v: 1, runKey, runId: m.runId, maxTurns: m.config.maxTurns, turnDeadlineMs: m.config.turnDeadlineMs, protocol: m.protocol, policies, scenarios: [...m.scenarios] };

  const connection = bullConnection(opts.url);
  const redis = new Redis(opts.url, { maxRetriesPerRequest: 3 });
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  // One line when Redis goes away and one when it is back; the clients reconnect with backoff meanwhile.
  const outage = new RedisOutage('coordinator', opts.shown, opts.log);
  queue.on('error', (err: Error) => outage.error(err));
  events.on('error', (err: Error) => outage.error(err));
  redis.on('error', (err: Error) => outage.error(err));
  redis.on('ready', () => outage.ready());
  const collector = new JobCollector({
    queue,
    runKey,
    pending,
    code: JSON.stringify(codeVersion()),
    commit: (plan, result) => {
      // Ledgers and cassettes first (each whole, through a rename), then the record: the record commits.
      writeEpisodeFiles(run.lock, plan.episodeId, result, opts.log);
      // Before the record: run.json names the worker that played it, rewritten as a new worker appears (at
      // most 64 times), so a coordinator killed mid-run leaves the list of what the workers applied.
      if (noteWorker(m.queue!, result.worker)) run.saveManifest();
      run.record(result.record);
    },
    notice: run.notice,
    onError: (err) => outage.error(err),
  });
  try {
    await redis.set(runSpecKey(runKey), JSON.stringify(spec));
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    events.on('completed', ({ jobId }) => void collector.look(jobId));
    events.on('failed', ({ jobId }) => void collector.look(jobId));
    await collector.retryFailed();
    await enqueue(queue, pending, runKey);
    opts.log(`queued ${pending.length} episode(s) on ${opts.shown} (run key ${runKey}); workers: parley worker --queue ${opts.shown}`);
    const sweep = async () => {
      // A Redis restarted without persistence lost the run spec with the jobs: put it back before the
      // jobs are queued again (writing it is idempotent; workers fetch it per run key).
      try {
        if (collector.remaining.size > 0 && (await redis.exists(runSpecKey(runKey))) === 0) await redis.set(runSpecKey(runKey), JSON.stringify(spec));
      } catch (err) {
        outage.error(err as Error);
        return;
      }
      await collector.lookAtAll();
    };
    await sweep();
    await collector.untilCollected(sweep, opts.sweepMs ?? 5_000, opts.signal);
    // Everything collected: the scenarios (secrets included) need not stay in Redis.
    if (collector.remaining.size === 0) await redis.del(runSpecKey(runKey));
    // Collected through Redis, so it answered: an outage still settling is over (said before the summary).
    outage.answered();
  } finally {
    await Promise.allSettled([events.close(), queue.close()]);
    redis.disconnect();
  }
  return { lost: collector.lost };
}

/** The ledgers and cassettes a worker returned, each written whole through a rename; nothing outside the episode's. */
function writeEpisodeFiles(lock: RunLock, episodeId: string, result: EpisodeResult, log: (line: string) => void): void {
  for (const f of result.files) {
    if (!writeEpisodeFile(lock, episodeId, f)) log(`episode ${episodeId}: ignored a file outside its ledgers/cassettes (${JSON.stringify(f.path).slice(0, 80)})`);
  }
}

function distinctPolicies(plans: readonly EpisodePlan[]): PolicyConfig[] {
  const seen = new Map<string, PolicyConfig>();
  for (const p of plans) for (const c of Object.values(p.policies ?? {})) seen.set(JSON.stringify(c), c);
  return [...seen.values()];
}
