import { CloseCode, policyKind, type PolicyConfig, type SeatRecovery } from '../../protocol/index.js';
import type { Episode } from '../episode.js';
import type { InboxEvent } from '../inbox.js';
import { SCRIPT_SEAT } from '../world.js';
import type { HostedSeat, SeatRelease, WorkerPool } from './worker-pool.js';

/**
 * Crash-recovery policy for locally hosted seats (documented in orchestrator/README.md):
 *  - A seat whose agent process dies (IPC `exit`, which also closes its socket) or hangs (no pong within
 *    the heartbeat timeout: the process is killed) is re-established on a fresh process from the pool
 *    that hosts no other seat of the episode; the link replays the seat's knowledge frames from its
 *    ledger record and the pending `turn.request` is resent, so the episode continues where it was.
 *  - Not recovered, the episode fails with the reason: a script writer that is not a bot (its LLM
 *    request may already have been answered and billed: it is not asked twice in one episode), or once
 *    an episode has used up `MAX_RECOVERIES_PER_EPISODE`, or when no replacement process can be started.
 *  - A seat released with an error by a process that is still alive (refused join, policy crash) is
 *    lost at once: the episode ends with `disconnect` and that error, without waiting out the grace.
 */
export const MAX_RECOVERIES_PER_EPISODE = 2;

/** How long a locally hosted seat may stay away while a replacement process takes it over. */
export const RECOVERY_GRACE_MS = 30_000;

/** How long a worker may take to report a seat released after its episode ended before it is replaced. */
export const RELEASE_GRACE_MS = 10_000;

export interface SupervisorOptions {
  /** The agent endpoint the workers dial. */
  url: string;
  log: (line: string) => void;
}

/** An episode's seats as hosted on the pool, watched until the episode ends. */
export interface SupervisedEpisode {
  /** Pid the supervisor gave each seat (the latest), for the episode's pid cross-check. */
  readonly hostPids: ReadonlyMap<string, number>;
  /** Seats re-established so far. */
  readonly recoveries: readonly SeatRecovery[];
  /** Called on every seat event of the running episode (pass as `Episode.run`'s `onSeatEvent`). */
  onSeatEvent(event: InboxEvent): void;
  /** The episode is over: stop recovering, wait for the workers to release its seats, replace stuck ones. */
  settle(): Promise<void>;
}

/** A seat a person plays: not hosted on the pool, its token is handed out instead. */
export const isOpen = (p: PolicyConfig): boolean => policyKind(p.spec) === 'human';

const isBot = (p: PolicyConfig) => policyKind(p.spec) === 'bot';

/**
 * Hosts every live seat of a prepared episode on the pool and supervises them while it runs, recovering
 * seats whose process dies by the policy above. Rejects only if the first hosting fails (pool closed).
 */
export async function superviseEpisode(episode: Episode, pool: WorkerPool, opts: SupervisorOptions): Promise<SupervisedEpisode> {
  const { episodeId } = episode.plan;
  const policies = episode.plan.policies ?? {};
  const hostPids = new Map<string, number>();
  const current = new Map<string, HostedSeat>();
  const recoveries: SeatRecovery[] = [];
  /** Whether a seat is over for good (episode ended, or lost): its lifecycle says, nothing here keeps a flag. */
  const over = (seat: string) => episode.links.get(seat)?.lifecycle.over ?? true;

  const place = async (seat: string, policy: PolicyConfig): Promise<void> => {
    // A replacement for a seat that was joined before presents the seat's current resume secret (the
    // token alone is spent); the lifecycle hands it over in-process, it never leaves the machine.
    const resume = episode.links.get(seat)?.lifecycle.resumeSecret ?? undefined;
    const h = await pool.host({ episodeId, url: opts.url, token: episode.tokens.get(seat)!, ...(resume ? { resume } : {}), policy });
    current.set(seat, h);
    hostPids.set(seat, h.pid);
    void h.released.then((r) => onReleased(seat, h, r));
  };

  /** Why a seat whose process died cannot be recovered, or null if it can. */
  const refusal = (seat: string): string | null => {
    if (recoveries.length >= MAX_RECOVERIES_PER_EPISODE) return `recovery attempts exhausted (${MAX_RECOVERIES_PER_EPISODE} per episode)`;
    const policy = policies[seat];
    if (!policy) return 'no policy to host it with';
    if (seat === SCRIPT_SEAT && !isBot(policy)) return 'an LLM script writer is not asked twice in one episode';
    return null;
  };

  const onReleased = async (seat: string, h: HostedSeat, r: SeatRelease): Promise<void> => {
    if (over(seat) || current.get(seat) !== h || r.ok) return;
    const lostPid = episode.links.get(seat)?.pids.includes(h.pid) ? h.pid : null;
    const reason = r.error ?? `agent process ${h.pid} released the seat`;
    if (!r.exited) {
      episode.seatLost(seat, `seat ${seat}: ${reason}`);
      return;
    }
    const refused = refusal(seat);
    if (refused) {
      opts.log(`${episodeId}/${seat}: ${reason}; not recovered: ${refused}`);
      episode.seatLost(seat, `seat ${seat}: ${reason}; not recovered: ${refused}`);
      return;
    }
    recoveries.push({ seat, lostPid, reason, turn: episode.turnsPlayed, atMs: episode.elapsedMs });
    // The socket may not have been seen closing yet: close it here so the replacement's join is accepted.
    episode.dropConnection(seat, `agent process ${h.pid} is gone`);
    try {
      await place(seat, { ...policies[seat]!, resume: true });
      opts.log(`${episodeId}/${seat}: ${reason}; seat re-established on agent process ${hostPids.get(seat)}`);
    } catch (err) {
      episode.seatLost(seat, `seat ${seat}: ${reason}; no replacement process: ${(err as Error).message}`);
    }
  };

  // `human` seats are open: a person takes them in the browser (or the terminal client) with the
  // printed token; the supervisor hosts the others.
  await Promise.all(Object.entries(policies).filter(([, p]) => !isOpen(p)).map(([seat, policy]) => place(seat, policy)));

  return {
    hostPids,
    recoveries,
    onSeatEvent(event) {
      // A hung process (no pong within the heartbeat timeout): kill it; its exit starts the recovery.
      if (event.kind === 'closed' && event.code === CloseCode.HeartbeatTimeout && !over(event.seat)) {
        const h = current.get(event.seat);
        if (h) {
          opts.log(`${episodeId}/${event.seat}: agent process ${h.pid} stopped answering heartbeats; replacing it`);
          pool.retire(h.pid);
        }
      }
    },
    settle: () => settleSeats(episode, pool, current, opts.log),
  };
}

/**
 * The episode is over: its seats' slots go to the next episodes at once (multiplexed pools: WorkerPool.seatOver),
 * and a seat whose worker does not report it released within RELEASE_GRACE_MS is dropped.
 */
async function settleSeats(episode: Episode, pool: WorkerPool, current: ReadonlyMap<string, HostedSeat>, log: (line: string) => void): Promise<void> {
  const { episodeId } = episode.plan;
  for (const [seat, h] of current) pool.seatOver(h.pid, episode.tokens.get(seat)!);
  await Promise.all([...current].map(async ([seat, h]) => {
    if (!(await settlesWithin(h.released, RELEASE_GRACE_MS))) {
      log(`agent process ${h.pid} did not release seat ${episodeId}/${seat} within ${RELEASE_GRACE_MS} ms; dropping it`);
      pool.abandon(h.pid, episode.tokens.get(seat)!, `seat ${episodeId}/${seat} not released within ${RELEASE_GRACE_MS} ms of its episode's end`);
    }
  }));
}

function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}
