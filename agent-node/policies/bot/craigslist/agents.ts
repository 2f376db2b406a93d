import { moveAction, type Action, type CraigslistPrivate, type TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { ownMoveCount, ownTurnsLeft } from '../conversation.js';
import { botRng, seedOf } from '../seed.js';
import { readNegotiation, type Negotiation } from './state.js';
import { atLeastAsGood, clampToLimit, limitOf, negotiatorStyle, nicePrice, priceStep, withinLimit, type NegotiatorStyle } from './terms.js';

const offer = (price: number): Action => moveAction({ move: 'offer', price });

/** The price this seat offers next: its opening, then a fraction of the way toward the partner's offer, never past its limit. */
export function nextOffer(task: CraigslistPrivate, style: NegotiatorStyle, n: Negotiation): number {
  const { role, target } = task;
  const limit = limitOf(task, style.tolerance);
  const last = n.myOffers[n.myOffers.length - 1];
  if (last === undefined) {
    const opening = role === 'buyer' ? target * (1 - style.openMargin) : target * (1 + style.openMargin);
    return nicePrice(role, opening, limit);
  }
  const anchor = n.partnerOffers[n.partnerOffers.length - 1] ?? limit;
  let next = last + style.concession * (anchor - last);
  // Never step back from an earlier offer, never cross the limit.
  next = role === 'buyer' ? Math.max(next, last) : Math.min(next, last);
  const rounded = nicePrice(role, clampToLimit(role, next, limit), limit);
  // Rounding must not freeze a seat that still has room: move at least one price step toward the partner.
  if (rounded === last && Math.abs(anchor - last) > 0.01) {
    const step = priceStep(last);
    return nicePrice(role, clampToLimit(role, role === 'buyer' ? Math.min(last + step, anchor) : Math.max(last - step, anchor), limit), limit);
  }
  return rounded;
}

/** Opening small talk: interest in the item (buyer) or in selling it (seller), no price. */
function openingLine(task: CraigslistPrivate, seed: number): string {
  const rng = botRng(seed);
  const title = task.item.title;
  if (task.role === 'buyer') {
    return rng.pick([
      `Hi! I saw your listing for the ${title}. Is it still available?`,
      `Hello, I'm interested in the ${title}. Could you tell me a bit about its condition?`,
      `Hi there, the ${title} looks like what I need. I'd like to make you an offer.`,
    ]);
  }
  return rng.pick([
    `Hi! Yes, the ${title} is still available, and it's in good shape.`,
    `Hello! Thanks for your interest in the ${title}. It has been well looked after.`,
    `Hi, glad you reached out about the ${title}. It's a good deal at the listed price.`,
  ]);
}

/**
 * Craigslist in `agents` mode: open near its own target (buyer below, seller above), concede a fraction
 * toward the partner's latest offer each round, accept an offer inside its limit once it is at least as good
 * as its own next offer (or it has bargained enough), and quit when held at its limit with no deal in reach.
 */
export function decideCraigslist(view: SeatView, request: TurnRequest, task: CraigslistPrivate): Action {
  const style = negotiatorStyle(view);
  const n = readNegotiation(view);
  if (n.closed) return { type: 'leave', argument: '' };
  if (ownMoveCount(view) === 0 && n.partnerOffers.length === 0) {
    return { type: 'speak', argument: openingLine(task, seedOf('cl-open', view.welcome.episodeId, view.welcome.seat)) };
  }
  const { role } = task;
  const limit = limitOf(task, style.tolerance);
  const next = nextOffer(task, style, n);
  const theirs = n.pendingPartnerOffer;
  const lastTurn = ownTurnsLeft(view, request) <= 1;
  if (theirs !== null && withinLimit(role, theirs, limit)) {
    const closeEnough = Math.abs(theirs - next) <= 0.03 * task.item.listingPrice;
    if (atLeastAsGood(role, theirs, next) || closeEnough || n.myOffers.length >= style.patience + 2 || lastTurn) {
      return moveAction({ move: 'accept' });
    }
  }
  // Walk away once held at the limit for a while — sooner if the partner has stopped moving too.
  const heldAtLimit = n.myOffers.filter((p) => Math.abs(p - nicePrice(role, limit, limit)) < 0.01).length;
  const [before, latest] = n.partnerOffers.slice(-2);
  const partnerStalled = before !== undefined && latest !== undefined && Math.abs(latest - before) < 0.01 * task.item.listingPrice;
  const outOfPatience = heldAtLimit >= style.patience && (partnerStalled || heldAtLimit >= style.patience + 2);
  if (outOfPatience || (lastTurn && n.myOffers.length > 0)) return moveAction({ move: 'quit' });
  return offer(next);
}

