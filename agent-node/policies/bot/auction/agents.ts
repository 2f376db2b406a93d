import { formatPrice, moveAction, type Action, type AuctionPrivate, type TurnRequest } from '../../../../protocol/index.js';
import { tallyAuction } from '../../../../seat-client/group-tally.js';
import type { SeatView } from '../../../policy.js';
import { orderedEvents, ownEvents, ownTurnsLeft, selfSeat } from '../conversation.js';

const money = (n: number) => `$${formatPrice(n)}`;

/** A bid raise: about 5% of the reference price, in whole dollars (at least $1). */
export function bidStep(reference: number): number {
  return Math.max(1, Math.round(reference * 0.05));
}

/** The seller's seat: the one whose first words open the auction (seat order puts the seller first in built-in scenarios). */
export function sellerSeat(view: SeatView): string | null {
  const task = view.welcome.self.task;
  if (task?.kind === 'auction' && task.role === 'seller') return selfSeat(view);
  // A buyer does not know who sells from private data; the seller is the seat that opened with "Bids open".
  const opener = orderedEvents(view).find((e) => e.action.type === 'speak' && e.action.argument.startsWith('Welcome! Bids open'));
  return opener?.seat ?? view.welcome.scenario.seats[0] ?? null;
}

/**
 * An English auction, in `agents` mode (nobody knows another's valuation):
 * - the seller opens the bidding, then after each round with no higher bid sells to the highest bid if it
 *   reaches its reserve (and withdraws the item at its last turn if none does);
 * - a buyer raises the highest bid by a step while the result stays within its own valuation, holds while
 *   it leads, and leaves when the price passes its valuation.
 */
export function decideAuction(view: SeatView, request: TurnRequest, task: AuctionPrivate): Action {
  return task.role === 'seller' ? sellerMove(view, request, task) : buyerMove(view, task, null);
}

function sellerMove(view: SeatView, request: TurnRequest, task: AuctionPrivate): Action {
  const me = selfSeat(view);
  const events = orderedEvents(view);
  const tally = tallyAuction(events, me);
  const mine = ownEvents(view);
  if (mine.length === 0) {
    return { type: 'speak', argument: `Welcome! Bids open now for the ${task.item.title}. ${task.item.description} Make your offers.` };
  }
  const sinceMyLast = events.filter((e) => e.turn > mine[mine.length - 1]!.turn);
  const raised = sinceMyLast.some((e) => e.action.type === 'action' && /^\s*offer/i.test(e.action.argument));
  const buyersActive = view.welcome.scenario.seats.filter((s) => s !== me && !events.some((e) => e.seat === s && e.action.type === 'leave'));
  const best = tally.best;
  const lastChance = ownTurnsLeft(view, request) <= 1;
  if (best && best.price >= task.valuation && (!raised || buyersActive.length <= 1 || lastChance)) return moveAction({ move: 'accept' });
  if (lastChance || buyersActive.length === 0) return moveAction({ move: 'quit' });
  if (!best) return { type: 'speak', argument: 'No bids yet. Who will start?' };
  return { type: 'speak', argument: `The highest bid is ${money(best.price)}. Do I hear more?` };
}

/**
 * A buyer's move; `ceiling` (from mindreading) is the price that wins against the others, when known.
 * Bids never pass the buyer's own valuation.
 */
export function buyerMove(view: SeatView, task: AuctionPrivate, ceiling: number | null): Action {
  const me = selfSeat(view);
  const tally = tallyAuction(orderedEvents(view), sellerSeat(view));
  const best = tally.best;
  if (best?.seat === me) return { type: 'speak', argument: `I stand by my bid of ${money(best.price)}.` };
  const step = bidStep(task.valuation);
  const opening = Math.max(1, Math.round(task.valuation * 0.5));
  let bid = best ? best.price + step : opening;
  if (ceiling !== null) bid = Math.max(bid, Math.min(ceiling, task.valuation));
  if (bid > task.valuation) return { type: 'leave', argument: '' };
  return moveAction({ move: 'offer', price: bid });
}
