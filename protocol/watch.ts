import * as z from 'zod';
import { Action } from './action.js';

/**
 * The live watch feed of a run (`parley run|serve --watch`): what the orchestrator tells the watch page
 * of the person running the experiment, on its own socket.io namespace. Read-only: the page's one
 * request, WATCH_OPEN_EVENT, chooses which episode's turns and ledgers it is sent; nothing from a
 * watcher reaches a seat. Shared by orchestrator/watch/ and web/watch/.
 */

/** The socket.io namespace of watchers (seats use the default one; a seat token never opens this one). */
export const WATCH_NAMESPACE = '/watch';
/** Server → watcher: one WatchMessage (a JSON value). */
export const WATCH_EVENT = 'watch';
/** Server → watcher, just before it is disconnected: why (too slow, too many watchers, it sent too much). */
export const WATCH_CLOSED_EVENT = 'watch.closed';
/** Watcher → server: the id of the episode to follow (a string); anything else is ignored. */
export const WATCH_OPEN_EVENT = 'watch.open';
/** Longest episode id a watcher may ask for (ids are short hashes; anything longer is not one). */
export const MAX_WATCH_ID = 200;

/** Where an episode is: planned, seats reserved and waiting, playing, or recorded. */
export const WatchState = z.enum(['queued', 'waiting', 'playing', 'done', 'failed']);
export type WatchState = z.infer<typeof WatchState>;

/** One episode of the run as listed. `costUsd` is null while nothing was priced (bots, unknown models). */
export const WatchRow = z.object({
  episodeId: z.string(),
  mode: z.string(),
  scenario: z.string(),
  state: WatchState,
  /** Turns played so far (live modes: accepted moves; script mode: known at the end). */
  turns: z.number().int().nonnegative(),
  maxTurns: z.number().int().positive(),
  tokens: z.number().nonnegative(),
  costUsd: z.number().nonnegative().nullable(),
  /** Why it ended, once it has (`max_turns`, `task_end(all_selected)`, …). */
  ending: z.string().optional(),
});
export type WatchRow = z.infer<typeof WatchRow>;

/** A played turn as the watcher sees it: the move, or the failure that took its place. */
export const WatchTurn = z.object({
  turn: z.number().int().nonnegative(),
  seat: z.string(),
  action: Action.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  atMs: z.number().nonnegative(),
});
export type WatchTurn = z.infer<typeof WatchTurn>;

/** How a run ended, sent with its last `run` message: what the page shows in place of the live view. */
export const WatchSummary = z.object({
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Planned episodes that never finished (an interrupted run). */
  unfinished: z.number().int().nonnegative(),
  tokens: z.number().nonnegative(),
  /** Null when some cost could not be priced (unknown models, remote-reported usage). */
  costUsd: z.number().nonnegative().nullable(),
});
export type WatchSummary = z.infer<typeof WatchSummary>;

export const WatchMessage = z.discriminatedUnion('type', [
  /** The run: its id, planned episodes, and whether it has ended (the page stops expecting updates). */
  z.object({ type: z.literal('run'), runId: z.string(), total: z.number().int().nonnegative(), ended: z.boolean(), summary: WatchSummary.optional() }),
  /** Rows added or changed since the last one (all of them on connect). */
  z.object({ type: z.literal('rows'), rows: z.array(WatchRow) }),
  /** The opened episode so far: its turns and each seat's ledger lines (frames as the seat received them). */
  z.object({
    type: z.literal('episode'),
    episodeId: z.string(),
    turns: z.array(WatchTurn),
    ledgers: z.record(z.string(), z.array(z.string())),
    /** Details no longer kept (an old finished episode) or cut at the retention cap: said, not hidden. */
    note: z.string().optional(),
  }),
  /** A new turn of the opened episode. */
  z.object({ type: z.literal('turn'), episodeId: z.string(), turn: WatchTurn }),
  /** New ledger lines of one seat of the opened episode. */
  z.object({ type: z.literal('ledger'), episodeId: z.string(), seat: z.string(), lines: z.array(z.string()) }),
]);
export type WatchMessage = z.infer<typeof WatchMessage>;
