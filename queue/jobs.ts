import * as z from 'zod';
import { EpisodeRecord, Mode, PolicyConfig } from '../protocol/index.js';
import { SimulationProtocol } from '../simulation/index.js';
import { Scenario } from '../scenarios/model.js';

/**
 * What coordinator and workers exchange through Redis. One queue for every run; a run's jobs carry its
 * `runKey`, and its configuration and scenarios are stored once under `runSpecKey(runKey)`.
 */
export const QUEUE_NAME = 'parley-episodes';

/** Redis key of a run's configuration and scenarios (written by the coordinator, read by workers). */
export function runSpecKey(runKey: string): string {
  return `parley:run:${runKey}`;
}

/**
 * BullMQ job id of an episode: the deterministic episode id, under the run's key so that two run
 * directories sharing a Redis never collide. Adding a job whose id exists does nothing in BullMQ,
 * so enqueueing twice (a rerun, two coordinators) never runs an episode twice.
 */
export function jobIdOf(runKey: string, episodeId: string): string {
  return `${runKey}.${episodeId}`;
}

/** What a worker needs besides a job: the run's settings and its scenarios, in full. */
export const RunSpec = z.object({
  v: z.literal(1),
  runKey: z.string(),
  runId: z.string(),
  maxTurns: z.number().int().positive(),
  turnDeadlineMs: z.number().int().positive(),
  /** The simulation protocol every episode of the run follows (paper or parley, resolved by the coordinator). */
  protocol: SimulationProtocol,
  /** Every policy the run's episodes use (agent processes load them before their first seat). */
  policies: z.array(PolicyConfig),
  scenarios: z.array(Scenario),
});
export type RunSpec = z.infer<typeof RunSpec>;

/** One job: one planned episode, by reference to the run spec's scenarios. */
export const EpisodeJob = z.object({
  runKey: z.string(),
  episodeId: z.string(),
  scenarioId: z.string(),
  mode: Mode,
  repeat: z.number().int().nonnegative(),
  /** Which draw of its instance (selection first-valid); absent: the first. */
  draw: z.number().int().positive().max(100).optional(),
  /** Policy per live seat, as the coordinator planned it (cassette paths are the worker's business). */
  policies: z.record(z.string(), PolicyConfig),
});
export type EpisodeJob = z.infer<typeof EpisodeJob>;

/**
 * A file of the episode relative to the run directory: only `ledgers/<episode>/…` and
 * `cassettes/<episode>/…` of this very episode, one path segment below (checked by the coordinator).
 */
export const EpisodeFile = z.object({ path: z.string(), text: z.string() });
export type EpisodeFile = z.infer<typeof EpisodeFile>;

/**
 * What a worker applied of what it decides (`parley worker --concurrency N --multiplex --seats-per-process N`):
 * run.json's `queue.workers` records it (worker-decided-settings.ts). Optional: an older worker sends none.
 */
export const WorkerSettings = z.object({
  concurrency: z.number().int().positive(),
  pool: z.object({ multiplex: z.boolean(), seatsPerProcess: z.number().int().positive() }),
});
export type WorkerSettings = z.infer<typeof WorkerSettings>;

/** What a worker hands back for a finished episode. */
export const EpisodeResult = z.object({
  record: EpisodeRecord,
  files: z.array(EpisodeFile),
  worker: z.object({
    host: z.string(),
    pid: z.number().int(),
    agentPids: z.array(z.number().int()),
    /** The worker's code (package version, git description): the coordinator says when it is not its own. */
    code: z.object({ package: z.string(), git: z.string().nullable() }),
    settings: WorkerSettings.optional(),
  }),
});
export type EpisodeResult = z.infer<typeof EpisodeResult>;

/** Whether a returned path is one of the episode's files: run-dir/ owns the layout (re-exported for the queue). */
export { isEpisodeFile } from '../run-dir/index.js';
