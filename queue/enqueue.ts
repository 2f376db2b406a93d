import type { Queue } from 'bullmq';
import type { EpisodePlan } from '../orchestrator/run/index.js';
import { jobIdOf, type EpisodeJob } from './jobs.js';

/** Attempts per job: an exception on a worker (not an episode failure: those are records) is retried. */
const JOB_ATTEMPTS = 3;

/** Adds one job per plan; BullMQ leaves a job whose id already exists as it is (queued, running or done). */
export async function enqueue(queue: Queue, plans: readonly EpisodePlan[], runKey: string): Promise<void> {
  await queue.addBulk(plans.map((p) => {
    const data: EpisodeJob = { runKey, episodeId: p.episodeId, scenarioId: p.scenario.id, mode: p.mode, repeat: p.repeat, ...(p.draw ? { draw: p.draw } : {}), policies: p.policies ?? {} };
    return { name: 'episode', data, opts: { jobId: jobIdOf(runKey, p.episodeId), attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: 5_000 } } };
  }));
}
