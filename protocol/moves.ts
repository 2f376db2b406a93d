import type { Action } from './action.js';

/**
 * Explicit task moves, written as SOTOPIA `action` arguments so they stay ordinary actions on the wire.
 * Bots use them; the rule metrics read them. LLM runs may also use them (the prompt says how), and
 * otherwise the judge detects deals from the dialogue.
 *
 *   select <friend name>      MutualFriends: my answer for the shared friend
 *   offer $<price>            Craigslist: a binding offer
 *   accept                    Craigslist: accept the partner's latest offer
 *   reject                    Craigslist: reject the partner's latest offer
 *   quit                      Craigslist: walk away without a deal
 */
export type TaskMove =
  | { move: 'select'; name: string }
  | { move: 'offer'; price: number }
  | { move: 'accept' }
  | { move: 'reject' }
  | { move: 'quit' };

const SELECT = /^\s*select(?:\s+friend)?\s*[:\-]?\s*(.+?)\s*\.?\s*$/i;
const OFFER = /^\s*offer\s*[:\-]?\s*\$?\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*\.?\s*$/i;
const BARE = /^\s*(accept|reject|quit)\b/i;

/** Reads a task move from an action; null when the action is not one (speech is never a move). */
export function parseMove(action: Action): TaskMove | null {
  if (action.type !== 'action') return null;
  const arg = action.argument;
  const sel = SELECT.exec(arg);
  if (sel) return { move: 'select', name: sel[1]! };
  const off = OFFER.exec(arg);
  if (off) {
    const price = Number(off[1]!.replace(/,/g, ''));
    return Number.isFinite(price) && price > 0 ? { move: 'offer', price } : null;
  }
  const bare = BARE.exec(arg);
  if (bare) return { move: bare[1]!.toLowerCase() as 'accept' | 'reject' | 'quit' };
  return null;
}

/** Writes a task move as an action. */
export function moveAction(move: TaskMove): Action {
  switch (move.move) {
    case 'select':
      return { type: 'action', argument: `select ${move.name}` };
    case 'offer':
      return { type: 'action', argument: `offer $${formatPrice(move.price)}` };
    default:
      return { type: 'action', argument: move.move };
  }
}

/** Prices as people write them: whole dollars without decimals, cents otherwise. */
export function formatPrice(price: number): string {
  return Number.isInteger(price) ? String(price) : price.toFixed(2);
}
