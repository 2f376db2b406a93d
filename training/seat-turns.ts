import type { GameNotice, OrchestratorFrame, PeerState, SeatWelcome, TurnEvent, TurnRequest } from '../protocol/index.js';
import type { seatPromptMessages } from '../agent-node/policies/llm/seat-prompt.js';

/** The seat view the agent prompt renderer takes (agent-node's `SeatView`, named through the renderer's own signature). */
export type RenderView = Parameters<typeof seatPromptMessages>[1];

/** One of a seat's turns: the view the seat had when it was asked, and the request it was asked with. */
export interface SeatTurn {
  view: RenderView;
  request: TurnRequest;
}

/**
 * Replays a seat's ledger (the frames its process received, in order) into the view it held at each of
 * its `turn.request`s — folded the way a live seat folds them: a later welcome replaces the earlier one
 * (reconnect), partner states are kept per seat, one public event per turn. A request repeated for the
 * same turn (after a reconnect) keeps the first: that is the one the policy answered with what it knew.
 */
export function seatTurnsFromLedger(frames: readonly OrchestratorFrame[]): SeatTurn[] {
  let welcome: SeatWelcome | null = null;
  const peers = new Map<string, PeerState['state']>();
  const events = new Map<number, TurnEvent>();
  const turns = new Map<number, SeatTurn>();
  // A game's moderator notices, one per number, as a live seat keeps them (agent-node/seat-view-state.ts).
  const notices = new Map<number, GameNotice>();
  for (const frame of frames) {
    switch (frame.type) {
      case 'seat.welcome':
        welcome = frame;
        break;
      case 'peer.state':
        peers.set(frame.state.seat, frame.state);
        break;
      case 'turn.event':
        events.set(frame.turn, frame);
        break;
      case 'game.notice':
        notices.set(frame.n, frame);
        break;
      case 'turn.request':
        if (welcome && !turns.has(frame.turn)) {
          turns.set(frame.turn, {
            request: frame,
            view: {
              welcome,
              peers: [...peers.values()],
              events: [...events.values()].sort((a, b) => a.turn - b.turn),
              ...(notices.size ? { notices: [...notices.values()].sort((a, b) => a.n - b.n) } : {}),
            },
          });
        }
        break;
      default:
        break;
    }
  }
  return [...turns.values()].sort((a, b) => a.request.turn - b.request.turn);
}
