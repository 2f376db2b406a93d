import { parseMove } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { orderedEvents, selfSeat } from '../conversation.js';

/** The negotiation so far, read from the explicit moves in the public events. */
export interface Negotiation {
  /** Binding offers in turn order. */
  offers: Array<{ seat: string; price: number; turn: number }>;
  myOffers: number[];
  partnerOffers: number[];
  /** The partner's latest offer if it is still on the table (nothing answered it). */
  pendingPartnerOffer: number | null;
  /** A deal was accepted or someone quit: nothing left to negotiate. */
  closed: 'deal' | 'quit' | null;
}

export function readNegotiation(view: SeatView): Negotiation {
  const me = selfSeat(view);
  const n: Negotiation = { offers: [], myOffers: [], partnerOffers: [], pendingPartnerOffer: null, closed: null };
  for (const event of orderedEvents(view)) {
    const move = parseMove(event.action);
    if (!move) continue;
    const mine = event.seat === me;
    switch (move.move) {
      case 'offer':
        n.offers.push({ seat: event.seat, price: move.price, turn: event.turn });
        (mine ? n.myOffers : n.partnerOffers).push(move.price);
        n.pendingPartnerOffer = mine ? null : move.price;
        break;
      case 'accept':
        if (n.offers.length > 0) n.closed = 'deal';
        n.pendingPartnerOffer = null;
        break;
      case 'quit':
        n.closed = 'quit';
        n.pendingPartnerOffer = null;
        break;
      case 'reject':
        n.pendingPartnerOffer = null;
        break;
      default:
        break;
    }
  }
  return n;
}
