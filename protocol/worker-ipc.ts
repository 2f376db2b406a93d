import * as z from 'zod';
import { PolicyConfig } from './policy-config.js';

/**
 * IPC between the orchestrator's supervisor and a pooled agent-node worker (`agent-node/worker.ts`, forked
 * with an IPC channel). Not a wire frame: these never leave the machine. The parent guarantees that seats
 * sent to one worker belong to different episodes (DESIGN invariant 1).
 */

/** parent → worker: play the seat reserved under `token` at `url` with `policy`. */
export const WorkerHost = z.object({
  type: z.literal('host'),
  url: z.string().min(1),
  token: z.string().min(1).max(128),
  /** The seat's current resume secret, when the seat was joined before (a replacement for a dead process). */
  resume: z.string().min(1).max(128).optional(),
  policy: PolicyConfig,
});
export type WorkerHost = z.infer<typeof WorkerHost>;
export type WorkerHostInput = z.input<typeof WorkerHost>;

/**
 * parent → worker, before any seat: load what these policies need (their modules, SDKs, templates) now,
 * so that start-up cost stays off the first episode. Answered by `warmed`.
 */
export const WorkerWarm = z.object({ type: z.literal('warm'), policies: z.array(PolicyConfig) });
export type WorkerWarm = z.infer<typeof WorkerWarm>;

/**
 * parent → worker: stop playing the seat hosted under `token` (close its connection) and keep the others.
 * Sent when a seat outlives its episode on a worker that also hosts seats of other episodes (multiplexed
 * mode): killing the process would end those innocent seats too.
 */
export const WorkerDrop = z.object({ type: z.literal('drop'), token: z.string().min(1).max(128), reason: z.string().max(500) });
export type WorkerDrop = z.infer<typeof WorkerDrop>;

export const ParentToWorker = z.discriminatedUnion('type', [WorkerHost, WorkerWarm, WorkerDrop]);
export type ParentToWorker = z.infer<typeof ParentToWorker>;

/** worker → parent, once at start: ready to host seats. */
export const WorkerReady = z.object({ type: z.literal('ready') });
/** worker → parent: the connection of the seat hosted under `token` ended (`ok`: after a normal episode.end). */
export const WorkerReleased = z.object({
  type: z.literal('released'),
  token: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
});
/** worker → parent: the `warm` request is done (`error`: a policy could not be prepared; hosting it will say why). */
export const WorkerWarmed = z.object({ type: z.literal('warmed'), error: z.string().optional() });
export type WorkerWarmed = z.infer<typeof WorkerWarmed>;
export type WorkerReady = z.infer<typeof WorkerReady>;
export type WorkerReleased = z.infer<typeof WorkerReleased>;

export const WorkerToParent = z.discriminatedUnion('type', [WorkerReady, WorkerReleased, WorkerWarmed]);
export type WorkerToParent = z.infer<typeof WorkerToParent>;
