import { heardMove, parseMove, type Action, type Outcome, type TaskMove, type TurnRecord } from '../protocol/index.js';
import { auctionOutcome, splitOutcome } from './group-outcome.js';
import type { Scenario } from './model.js';

/**
 * The task outcome of an episode, from its explicit moves (protocol/moves.ts):
 * - MutualFriends: each seat's last `select`; success iff every seat selected the answer's name
 *   (case- and space-insensitive).
 * - Craigslist: a deal iff an `accept` follows an offer by another seat; the price is that seat's latest
 *   offer before the accept.
 * - auction and split (groups): scenarios/group-outcome.ts.
 * - open scenarios: no task, success null.
 * Turns that failed (no action) carry no move. With `spoken` (`--protocol paper`, which has no task
 * moves), the bots' fixed choice sentences count too (protocol/moves.ts `heardMove`); an LLM's free speech
 * is left to the judge.
 */
export function computeOutcome(scenario: Scenario, turns: readonly TurnRecord[], spoken = false): Outcome {
  const read = (a: Action): TaskMove | null => parseMove(a) ?? (spoken ? heardMove(a) : null);
  if (scenario.kind === 'mutual_friends') return mutualFriendsOutcome(scenario, turns, read);
  if (scenario.kind === 'craigslist') return craigslistOutcome(turns, read);
  if (scenario.kind === 'auction') return auctionOutcome(scenario, turns, read);
  if (scenario.kind === 'split') return splitOutcome(scenario, turns, read);
  // A game's winner comes from the engine that enforced its rules (the record's `game`); none without it.
  if (scenario.kind === 'game') return { kind: 'game', winner: null, success: null };
  return { kind: 'open', success: null };
}

type ReadMove = (a: Action) => TaskMove | null;

function mutualFriendsOutcome(scenario: Scenario, turns: readonly TurnRecord[], read: ReadMove): Outcome {
  const selections: Record<string, string | null> = Object.fromEntries(scenario.seats.map((s) => [s.seat, null]));
  for (const t of turns) {
    if (!t.action) continue;
    const move = read(t.action);
    if (move?.move === 'select' && t.seat in selections) selections[t.seat] = move.name;
  }
  const answer = answerName(scenario);
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  const success = answer !== '' && Object.values(selections).every((name) => name !== null && norm(name) === norm(answer));
  return { kind: 'mutual_friends', selections, answer, success };
}

/** The shared friend's name: the answer's `Name` attribute (any case), else its first value. */
function answerName(scenario: Scenario): string {
  if (scenario.truth?.kind !== 'mutual_friends') return '';
  const entries = Object.entries(scenario.truth.answer);
  const named = entries.find(([k]) => k.toLowerCase() === 'name');
  return (named ?? entries[0])?.[1] ?? '';
}

function craigslistOutcome(turns: readonly TurnRecord[], read: ReadMove): Outcome {
  for (const t of turns) {
    if (!t.action) continue;
    const move = read(t.action);
    if (!move) continue;
    if (move.move === 'accept') {
      // The partner's latest offer: the most recent offer made by any other seat.
      const partnerOffer = latestOfferBy(turns, t.turn, t.seat, read);
      if (partnerOffer !== null) return { kind: 'craigslist', deal: true, price: partnerOffer, acceptedBy: t.seat, success: true };
    } else if (move.move === 'quit') {
      break;
    }
  }
  return { kind: 'craigslist', deal: false, price: null, acceptedBy: null, success: false };
}

function latestOfferBy(turns: readonly TurnRecord[], beforeTurn: number, notSeat: string, read: ReadMove): number | null {
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.turn >= beforeTurn || t.seat === notSeat || !t.action) continue;
    const move = read(t.action);
    if (move?.move === 'offer') return move.price;
  }
  return null;
}
