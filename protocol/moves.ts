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
 *   propose 40/30/30          split: shares in seat order (accept / reject vote on the latest proposal)
 *
 * Group tasks reuse them: in an auction `offer` is a buyer's bid and the seller's `accept` takes the
 * highest bid; in a split `accept` and `reject` are votes on the latest `propose`.
 */
export type TaskMove =
  | { move: 'select'; name: string }
  | { move: 'offer'; price: number }
  | { move: 'accept' }
  | { move: 'reject' }
  | { move: 'quit' }
  | { move: 'propose'; shares: number[] };

const SELECT = /^\s*select(?:\s+friend)?\s*[:\-]?\s*(.+?)\s*\.?\s*$/i;
const OFFER = /^\s*offer\s*[:\-]?\s*\$?\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*\.?\s*$/i;
const BARE = /^\s*(accept|reject|quit)\b/i;
/** Two to twelve whole shares separated by slashes (a group has at most that many seats to share among). */
const PROPOSE = /^\s*propose\s*[:\-]?\s*([0-9]{1,9}(?:\s*\/\s*[0-9]{1,9}){1,11})\s*\.?\s*$/i;

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
  const proposed = PROPOSE.exec(arg);
  if (proposed) return { move: 'propose', shares: proposed[1]!.split('/').map((x) => Number(x.trim())) };
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
    case 'propose':
      return { type: 'action', argument: `propose ${move.shares.join('/')}` };
    default:
      return { type: 'action', argument: move.move };
  }
}

/** Prices as people write them: whole dollars without decimals, cents otherwise. */
export function formatPrice(price: number): string {
  return Number.isInteger(price) ? String(price) : price.toFixed(2);
}

/**
 * `--protocol paper` has no task moves: a bot says its choice in one fixed sentence instead (`quit` is a
 * `leave`), and the task outcome reads those sentences back (`heardMove`). Only these exact sentences
 * count, so ordinary speech is never taken for a move.
 */
export function speakMove(move: TaskMove): Action {
  switch (move.move) {
    case 'select':
      return { type: 'speak', argument: `My answer: the friend we have in common is ${move.name}.` };
    case 'offer':
      return { type: 'speak', argument: `I offer $${formatPrice(move.price)}.` };
    case 'accept':
      return { type: 'speak', argument: 'I accept your offer. Deal.' };
    case 'reject':
      return { type: 'speak', argument: 'I reject that offer.' };
    case 'quit':
      return { type: 'leave', argument: '' };
    case 'propose':
      return { type: 'speak', argument: `I propose the split ${move.shares.join('/')}.` };
  }
}

const SPOKEN_SELECT = /^My answer: the friend we have in common is (.+)\.$/;
const SPOKEN_OFFER = /^I offer \$([0-9]+(?:\.[0-9]+)?)\.$/;
const SPOKEN_PROPOSE = /^I propose the split ([0-9]{1,9}(?:\/[0-9]{1,9}){1,11})\.$/;

/** The move a `speakMove` sentence stands for, else null. */
export function heardMove(action: Action): TaskMove | null {
  if (action.type !== 'speak') return null;
  const arg = action.argument.trim();
  const sel = SPOKEN_SELECT.exec(arg);
  if (sel) return { move: 'select', name: sel[1]! };
  const off = SPOKEN_OFFER.exec(arg);
  if (off) return { move: 'offer', price: Number(off[1]) };
  const prop = SPOKEN_PROPOSE.exec(arg);
  if (prop) return { move: 'propose', shares: prop[1]!.split('/').map(Number) };
  if (arg === 'I accept your offer. Deal.') return { move: 'accept' };
  if (arg === 'I reject that offer.') return { move: 'reject' };
  return null;
}
