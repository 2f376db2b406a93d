import type { ScriptFail, ScriptSubmit, TurnAct, TurnFail } from '../protocol/index.js';
import type { Clock, TimerHandle } from './clock.js';

/** Frames a joined seat sends that the episode engine handles (join and pong stay at the connection). */
export type EpisodeFrame = TurnAct | TurnFail | ScriptSubmit | ScriptFail;

/** What happens on an episode's seats, in arrival order. */
export type InboxEvent =
  /** `receivedAt`: `process.hrtime.bigint()` when the raw frame reached the connection (overhead measurement). */
  | { kind: 'frame'; seat: string; frame: EpisodeFrame; receivedAt?: bigint }
  /** The seat's connection closed (crash, network, abuse close). */
  | { kind: 'closed'; seat: string; code: number; reason: string }
  /** The seat reconnected with its token after a close. */
  | { kind: 'rejoined'; seat: string }
  /** The seat will not come back (its process is gone and cannot be replaced): end the episode now. */
  | { kind: 'lost'; seat: string; detail: string };

/**
 * One queue per episode joining all its seats' events, so the engine is a plain sequential loop:
 * `await inbox.next(deadline)`. Deadlines use the injected clock.
 */
export class Inbox {
  private readonly queue: InboxEvent[] = [];
  private waiter: ((e: InboxEvent | null) => void) | null = null;

  constructor(private readonly clock: Clock) {}

  push(event: InboxEvent): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w(event);
    } else {
      this.queue.push(event);
    }
  }

  /** Next event, or `null` when the clock reaches `until` first (`until` null: wait indefinitely). */
  next(until: number | null): Promise<InboxEvent | null> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.waiter) throw new Error('Inbox.next called while another wait is pending');
    return new Promise((resolve) => {
      let timer: TimerHandle | undefined;
      this.waiter = (e) => {
        if (timer !== undefined) this.clock.clearTimeout(timer);
        resolve(e);
      };
      if (until !== null) {
        timer = this.clock.setTimeout(() => {
          timer = undefined;
          this.waiter = null;
          resolve(null);
        }, until - this.clock.now());
      }
    });
  }
}
