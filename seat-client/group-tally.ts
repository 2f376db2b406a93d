import type { Action } from '../protocol/action.js';
import { parseMove, type TaskMove } from '../protocol/moves.js';

/**
 * The state of the group tasks' moves (protocol/moves.ts), read from public moves only, so that the
 * orchestrator's outcome, the bots and the seat page agree: what a seat can tell from what it heard.
 */
export interface PublicMove {
  seat: string;
  action: Action | null;
}
export type ReadMove = (a: Action) => TaskMove | null;

export interface AuctionTally {
  /** The highest bid so far (the earliest of equal bids), by a seat other than the seller. */
  best: { seat: string; price: number } | null;
  /** Set once the seller accepted a standing bid (the winner and price are `best`) or quit. */
  closed: 'sold' | 'withdrawn' | null;
}

/**
 * Auction: buyers bid with `offer`; the seller's `accept` sells to the highest bid so far, the seller's
 * `quit` ends it unsold. A buyer's `accept`, a seller's bid or an accept before any bid change nothing.
 */
export function tallyAuction(moves: readonly PublicMove[], seller: string | null, read: ReadMove = parseMove): AuctionTally {
  let best: AuctionTally['best'] = null;
  for (const m of moves) {
    const move = m.action ? read(m.action) : null;
    if (!move) continue;
    if (m.seat !== seller) {
      if (move.move === 'offer' && (!best || move.price > best.price)) best = { seat: m.seat, price: move.price };
      continue;
    }
    if (move.move === 'accept' && best) return { best, closed: 'sold' };
    if (move.move === 'quit') return { best, closed: 'withdrawn' };
  }
  return { best, closed: null };
}

export interface SplitTally {
  /** The latest valid proposal and who backs it (the proposer always does), or null. */
  open: { proposer: string; shares: number[]; yes: string[]; no: string[] } | null;
  /** Set once a proposal had more than half of the seats behind it. */
  passed: { proposer: string; shares: number[] } | null;
}

/**
 * Split: `propose a/b/c` puts shares in seat order on the table (one whole share per seat, adding up to
 * the total when it is known, else it is ignored); the proposer backs it, `accept` votes for the latest
 * proposal, `reject` against. It passes once more than half of the seats back it; a newer proposal
 * starts a new vote.
 */
export function tallySplit(moves: readonly PublicMove[], seats: readonly string[], total: number | null, read: ReadMove = parseMove): SplitTally {
  let open: SplitTally['open'] = null;
  for (const m of moves) {
    const move = m.action ? read(m.action) : null;
    if (move?.move === 'propose') {
      const sum = move.shares.reduce((a, b) => a + b, 0);
      if (move.shares.length === seats.length && (total === null || sum === total)) open = { proposer: m.seat, shares: move.shares, yes: [m.seat], no: [] };
      continue;
    }
    if (!open || !move) continue;
    if (move.move === 'accept' || move.move === 'reject') {
      open.yes = open.yes.filter((s) => s !== m.seat);
      open.no = open.no.filter((s) => s !== m.seat);
      (move.move === 'accept' ? open.yes : open.no).push(m.seat);
    }
    if (open.yes.length > seats.length / 2) return { open, passed: { proposer: open.proposer, shares: open.shares } };
  }
  return { open, passed: null };
}
