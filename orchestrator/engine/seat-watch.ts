import type { EpisodeFrame } from '../inbox.js';
import type { EngineContext } from './engine-types.js';

export type WaitOutcome =
  | { kind: 'frame'; seat: string; frame: EpisodeFrame; receivedAt?: bigint }
  | { kind: 'deadline' }
  | { kind: 'disconnect'; seat: string; detail: string };

/**
 * Waits on an episode's inbox for the next seat frame while tracking connections: a seat whose
 * connection closed has `reconnectGraceMs` to rejoin (then `onRejoin` lets the caller resend what
 * the seat is waiting for); past that, or with no grace, or when the supervisor reports the seat `lost`
 * (its process died and cannot be replaced), the wait ends with `disconnect`.
 */
export class SeatWatch {
  private readonly down = new Map<string, number>();

  constructor(private readonly ctx: EngineContext) {}

  async next(deadlineAt: number, onRejoin: (seat: string) => void): Promise<WaitOutcome> {
    const { inbox, clock, reconnectGraceMs } = this.ctx;
    for (;;) {
      const until = Math.min(deadlineAt, ...this.down.values());
      const event = await inbox.next(until);
      if (event === null) {
        const now = clock.now();
        for (const [seat, graceUntil] of this.down) {
          if (now >= graceUntil) return { kind: 'disconnect', seat, detail: `seat ${seat} did not reconnect within ${reconnectGraceMs} ms` };
        }
        if (now >= deadlineAt) return { kind: 'deadline' };
        continue;
      }
      switch (event.kind) {
        case 'frame':
          return event;
        case 'closed':
          if (reconnectGraceMs <= 0) {
            return { kind: 'disconnect', seat: event.seat, detail: `connection closed (${event.code} ${event.reason})`.trim() };
          }
          this.down.set(event.seat, clock.now() + reconnectGraceMs);
          break;
        case 'rejoined':
          this.down.delete(event.seat);
          onRejoin(event.seat);
          break;
        case 'lost':
          return { kind: 'disconnect', seat: event.seat, detail: event.detail };
      }
    }
  }
}
