import type { TurnEvent } from '../protocol/frames.js';
import { tallyAuction, tallySplit } from './group-tally.js';
import { parseMove } from '../protocol/moves.js';

/**
 * The task outcome as far as a seat can tell it (the browser page's end screen, the terminal client's
 * last line) from what it received: the seat's own selection and
 * the partner's (MutualFriends: the same name chosen by both is the shared friend — each chose from their
 * own list), or the deal price (Craigslist: an accept after an offer). Nothing here is hidden information.
 */
export function outcomeText(kind: string, events: readonly TurnEvent[], me: string, names: (seat: string) => string, seats: readonly string[] = []): string {
  return outcomeParts(kind, events, me, names, seats).map((p) => (typeof p === 'string' ? p : p.untrusted)).join('');
}

/** A piece of composed text: Parley's own words, or untrusted text (a name) the browser isolates in a `<bdi>`. */
export type TextPart = string | { untrusted: string };

/** `outcomeText` in parts, so a page can isolate each name a participant or scenario chose. */
export function outcomeParts(kind: string, events: readonly TurnEvent[], me: string, names: (seat: string) => string, seats: readonly string[] = []): TextPart[] {
  const u = (text: string): TextPart => ({ untrusted: text });
  if (kind === 'mutual_friends') {
    const last = new Map<string, string>();
    for (const e of events) {
      const m = parseMove(e.action);
      if (m?.move === 'select') last.set(e.seat, m.name);
    }
    if (!last.size) return ['Nobody selected a friend.'];
    const parts = [...last].flatMap(([seat, name], i): TextPart[] => [i ? '; ' : '', seat === me ? 'You' : u(names(seat)), ' selected ', u(name)]);
    const values = [...last.values()];
    const agreed = last.size > 1 && values.every((v) => v.toLowerCase() === values[0]!.toLowerCase());
    const everyone = last.size > 2 ? 'you all' : 'you both';
    return [...parts, `. ${agreed ? `Success: ${everyone} found the shared friend.` : 'No agreement on the shared friend.'}`];
  }
  if (kind === 'craigslist') {
    let offer: { seat: string; price: number } | null = null;
    for (const e of events) {
      const m = parseMove(e.action);
      if (m?.move === 'offer') offer = { seat: e.seat, price: m.price };
      if (m?.move === 'accept' && offer && offer.seat !== e.seat) return [`Deal at $${offer.price}.`];
      if (m?.move === 'quit') return [e.seat === me ? 'You' : u(names(e.seat)), ' walked away: no deal.'];
    }
    return ['No deal.'];
  }
  if (kind === 'auction') {
    // The seller is the seat whose accept or quit follows others' bids (the first seat until then).
    const bidders = new Set(events.flatMap((e) => (parseMove(e.action)?.move === 'offer' ? [e.seat] : [])));
    const closer = events.find((e) => { const m = parseMove(e.action); return (m?.move === 'accept' || m?.move === 'quit') && !bidders.has(e.seat); });
    const t = tallyAuction(events, closer?.seat ?? null);
    const who = (seat: string): TextPart => (seat === me ? 'you' : u(names(seat)));
    if (t.closed === 'sold' && t.best) return ['Sold to ', who(t.best.seat), ` for $${t.best.price}.`];
    return ['Not sold.'];
  }
  if (kind === 'split') {
    const t = tallySplit(events, seats, null);
    return [t.passed ? `A proposal passed: ${t.passed.shares.join('/')}.` : 'No proposal passed.'];
  }
  return [];
}
