import { ErrorCode } from '../../protocol/index.js';
import type { EpisodeFrame } from '../inbox.js';
import type { EngineContext } from './engine-types.js';

export type WaitOutcome =
  | { kind: 'frame'; seat: string; frame: EpisodeFrame; receivedAt?: bigint }
  | { kind: 'deadline' }
  | { kind: 'disconnect'; seat: string; detail: string; code: ErrorCode };

/**
 * Waits on an episode's inbox for the next seat frame while asking the seats' lifecycles about their
 * connections: a dropped seat is waited for until its grace's last instant (the lifecycle computed it
 * once, at the drop), then `onRejoin` lets the caller resend what the seat is waiting for; a seat the
 * lifecycle declares lost (grace passed, no grace, closed for abuse, or reported lost by the supervisor)
 * ends the wait with `disconnect`.
 */
export class SeatWatch {
  constructor(private readonly ctx: EngineContext) {}

  async next(deadlineAt: number, onRejoin: (seat: string) => void): Promise<WaitOutcome> {
    const { inbox, clock, lifecycles } = this.ctx;
    for (;;) {
      const lost = this.lostSeat();
      if (lost) return lost;
      // Wake just after a grace's last instant: a resume at exactly that instant is still accepted.
      const graces = [...lifecycles.values()].flatMap((l) => (l.graceUntil === null ? [] : [l.graceUntil + 1]));
      const event = await inbox.next(Math.min(deadlineAt, ...graces));
      if (event === null) {
        for (const l of lifecycles.values()) l.expire();
        if (this.lostSeat()) continue;
        if (clock.now() >= deadlineAt) return { kind: 'deadline' };
        continue;
      }
      switch (event.kind) {
        case 'frame':
          return event;
        case 'closed':
          break;
        case 'rejoined':
          onRejoin(event.seat);
          break;
        case 'lost':
          return { kind: 'disconnect', seat: event.seat, detail: event.detail, code: ErrorCode.Disconnected };
      }
    }
  }

  private lostSeat(): WaitOutcome | null {
    for (const l of this.ctx.lifecycles.values()) {
      if (l.phase !== 'lost') continue;
      const last = l.events.findLast((e) => e.kind === 'lost');
      const code = last?.code === ErrorCode.Abuse ? ErrorCode.Abuse : ErrorCode.Disconnected;
      return { kind: 'disconnect', seat: l.seat, detail: l.lostReason ?? `seat ${l.seat} lost`, code };
    }
    return null;
  }
}
