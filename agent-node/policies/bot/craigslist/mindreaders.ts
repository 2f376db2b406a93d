import { moveAction, type Action, type CraigslistPrivate, type TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { decideCraigslist } from './agents.js';
import { readNegotiation } from './state.js';
import { clampToLimit, limitOf, negotiatorStyle, withinLimit } from './terms.js';

/** The partner's Craigslist terms, if a `peer.state` frame delivered them. */
export function peerTerms(view: SeatView): CraigslistPrivate | null {
  for (const peer of view.peers) if (peer.task?.kind === 'craigslist') return peer.task;
  return null;
}

/**
 * Craigslist in `mindreaders` mode: it knows the partner's target (and bottomline), so it offers the
 * partner's own price when its limit allows — a deal in a turn or two — else its own limit, accepts any
 * offer inside its limit, and quits when the offers cannot meet. Without a peer state it plays like `agents`.
 */
export function decideCraigslistMindreader(view: SeatView, request: TurnRequest, task: CraigslistPrivate): Action {
  const partner = peerTerms(view);
  if (!partner) return decideCraigslist(view, request, task);
  const style = negotiatorStyle(view);
  const n = readNegotiation(view);
  if (n.closed) return { type: 'leave', argument: '' };
  const limit = limitOf(task, style.tolerance);
  if (n.pendingPartnerOffer !== null && withinLimit(task.role, n.pendingPartnerOffer, limit)) return moveAction({ move: 'accept' });
  const theirPrice = partner.bottomline ?? partner.target;
  // Exact cents, not a round number: rounding could push the offer past the partner's limit.
  const price = Math.round(clampToLimit(task.role, theirPrice, limit) * 100) / 100;
  const repeats = n.myOffers.filter((p) => Math.abs(p - price) < 0.01).length;
  if (repeats >= 2) return moveAction({ move: 'quit' });
  return moveAction({ move: 'offer', price });
}
