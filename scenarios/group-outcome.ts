import { type Outcome, type TurnRecord } from '../protocol/index.js';
import { tallyAuction, tallySplit, type ReadMove } from '../seat-client/group-tally.js';
import type { Scenario } from './model.js';

type AuctionOutcome = Extract<Outcome, { kind: 'auction' }>;
type SplitOutcome = Extract<Outcome, { kind: 'split' }>;

/** Auction outcome (seat-client/group-tally.ts): sold or not, the price and the winning buyer. */
export function auctionOutcome(scenario: Scenario, turns: readonly TurnRecord[], read: ReadMove): AuctionOutcome {
  const t = tallyAuction(turns, sellerOf(scenario), read);
  if (t.closed === 'sold' && t.best) return { kind: 'auction', sold: true, price: t.best.price, winner: t.best.seat, success: true };
  return { kind: 'auction', sold: false, price: null, winner: null, success: false };
}

/** The seat that sells (null when the scenario has none: `scenarios check` reports it). */
export function sellerOf(scenario: Scenario): string | null {
  return scenario.seats.find((s) => s.task?.kind === 'auction' && s.task.role === 'seller')?.seat ?? null;
}

/** Split outcome (seat-client/group-tally.ts): whether a proposal passed, its shares by seat and proposer. */
export function splitOutcome(scenario: Scenario, turns: readonly TurnRecord[], read: ReadMove): SplitOutcome {
  const seats = scenario.seats.map((s) => s.seat);
  const total = scenario.truth?.kind === 'split' ? scenario.truth.total : null;
  const { passed } = tallySplit(turns, seats, total, read);
  if (!passed) return { kind: 'split', passed: false, shares: null, proposer: null, success: false };
  const shares = Object.fromEntries(seats.map((s, i) => [s, passed.shares[i]!]));
  return { kind: 'split', passed: true, shares, proposer: passed.proposer, success: true };
}
