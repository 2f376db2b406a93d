import { Job, type Queue } from 'bullmq';
import { otherCodeLine, unreadableResultLine, workerFailedLine } from './worker-lines.js';
import type { EpisodePlan } from '../orchestrator/run/index.js';
import { enqueue } from './enqueue.js';
import { EpisodeResult, jobIdOf } from './jobs.js';

export interface JobCollectorOptions {
  queue: Queue;
  runKey: string;
  /** The episodes whose jobs this invocation waits for. */
  pending: readonly EpisodePlan[];
  /** This coordinator's code version (JSON), to name workers that run other code. */
  code: string;
  /** Writes one episode's returned files and record into the run directory (the record commits it). */
  commit(plan: EpisodePlan, result: EpisodeResult): void;
  notice(line: string): void;
  /** A Redis error while looking at a job (the job is looked at again by the next sweep). */
  onError(err: Error): void;
}

/**
 * How results come back from the queue: a job is looked at when its event arrives and by periodic
 * sweeps (events can be missed); a completed job's result is checked and committed, then the job is
 * removed; a job Redis lost or a worker answered unreadably is queued again; a job failed for good is
 * counted `lost` (a rerun tries it again). Looks are serialised: one writer of the run directory.
 */
export class JobCollector {
  /** Job ids not yet collected. */
  readonly remaining: Set<string>;
  /** Jobs failed for good on the workers: not recorded. */
  lost = 0;
  private readonly byJob: Map<string, EpisodePlan>;
  private chain: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  private readonly otherCode = new Set<string>();

  constructor(private readonly o: JobCollectorOptions) {
    this.byJob = new Map(o.pending.map((p) => [jobIdOf(o.runKey, p.episodeId), p]));
    this.remaining = new Set(this.byJob.keys());
  }

  /** Jobs of an earlier invocation that failed for good are given another go. */
  async retryFailed(): Promise<void> {
    for (const jobId of this.remaining) {
      const job = await Job.fromId(this.o.queue, jobId);
      if (job && (await job.getState()) === 'failed') await job.retry('failed', { resetAttemptsMade: true });
    }
  }

  /** Looks at one job and, if it is finished, collects it; resolves once this look is done. */
  look(jobId: string): Promise<void> {
    if (!this.remaining.has(jobId)) return this.chain;
    this.chain = this.chain.then(() => this.collect(jobId)).catch((err: Error) => this.o.onError(err));
    return this.chain;
  }

  /** Looks at every job not yet collected. */
  async lookAtAll(): Promise<void> {
    for (const jobId of [...this.remaining]) await this.look(jobId);
  }

  /**
   * Until every job is collected or `signal` aborts: waits for the last job's event, or `sweepMs`, then
   * `sweep`s (events can be missed: a reconnect, a trimmed stream). Resolves after the last look.
   */
  async untilCollected(sweep: () => Promise<void>, sweepMs: number, signal?: AbortSignal): Promise<void> {
    while (this.remaining.size > 0 && !signal?.aborted) {
      await new Promise<void>((r) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          r();
        };
        const timer = setTimeout(done, sweepMs);
        this.wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
      this.wake = null;
      if (this.remaining.size > 0) await sweep();
    }
    await this.chain;
  }

  private async collect(jobId: string): Promise<void> {
    if (!this.remaining.has(jobId)) return;
    const { queue, runKey } = this.o;
    const plan = this.byJob.get(jobId)!;
    // State first, then the job: a job read while still active has no return value yet.
    const state = await queue.getJobState(jobId);
    if (state === 'unknown') {
      // Gone from Redis (flushed, or a restart without persistence): queue it again.
      this.o.notice(`episode ${plan.episodeId}: its job is no longer in Redis; queued again`);
      await enqueue(queue, [plan], runKey);
      return;
    }
    if (state !== 'completed' && state !== 'failed') return;
    const job = await Job.fromId(queue, jobId);
    if (!job) return;
    if (state === 'failed') {
      // `failed` is final in BullMQ (a retry goes back to waiting): attempts spent, or stalled too often.
      this.o.notice(workerFailedLine(plan.episodeId, job.failedReason));
      this.lost += 1;
      this.done(jobId);
      return;
    }
    const result = EpisodeResult.safeParse(job.returnvalue);
    if (!result.success || result.data.record.episodeId !== plan.episodeId) {
      const why = result.success ? `record of ${result.data.record.episodeId}` : result.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      this.o.notice(unreadableResultLine(plan.episodeId, why));
      await job.remove();
      await enqueue(queue, [plan], runKey);
      return;
    }
    const theirs = JSON.stringify(result.data.worker.code);
    if (theirs !== this.o.code && !this.otherCode.has(theirs)) {
      this.otherCode.add(theirs);
      this.o.notice(otherCodeLine(result.data.worker, theirs, this.o.code));
    }
    this.o.commit(plan, result.data);
    this.remaining.delete(jobId);
    await job.remove();
    this.settled();
  }

  private done(jobId: string): void {
    this.remaining.delete(jobId);
    this.settled();
  }

  /** Ends the wait once nothing is left (not on each job: the sweep would then run once per record). */
  private settled(): void {
    if (this.remaining.size === 0) this.wake?.();
  }
}
