import type { GameNotice, PeerState, SeatWelcome, TurnEvent } from '../protocol/index.js';
import type { SeatView } from './policy.js';

/**
 * The seat's knowledge, folded from the frames it received: the welcome, partners' private states
 * (`peer.state`) and the public events. Idempotent, so frames repeated after a reconnect change nothing.
 */
export class SeatViewState {
  private welcomeFrame: SeatWelcome | null = null;
  private readonly peers = new Map<string, PeerState['state']>();
  private readonly events = new Map<number, TurnEvent>();
  private readonly notices = new Map<number, GameNotice>();

  get welcomed(): boolean {
    return this.welcomeFrame !== null;
  }

  /** A later welcome (after a reconnect) replaces the earlier one; peers and events are kept. */
  welcome(frame: SeatWelcome): void {
    this.welcomeFrame = frame;
  }

  peerState(frame: PeerState): void {
    this.peers.set(frame.state.seat, frame.state);
  }

  /** One event per turn: a resent event replaces the one with the same turn number. */
  event(frame: TurnEvent): void {
    this.events.set(frame.turn, frame);
  }

  /** A game's moderator notice: one per number, so a resent notice replaces itself. */
  notice(frame: GameNotice): void {
    this.notices.set(frame.n, frame);
  }

  /** A snapshot for a policy call, or null before the welcome. */
  snapshot(): SeatView | null {
    if (!this.welcomeFrame) return null;
    return {
      welcome: this.welcomeFrame,
      peers: [...this.peers.values()],
      events: [...this.events.values()].sort((a, b) => a.turn - b.turn),
      ...(this.notices.size ? { notices: [...this.notices.values()].sort((a, b) => a.n - b.n) } : {}),
    };
  }
}
