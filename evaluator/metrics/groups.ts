import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';

/** The auction's result: whether it sold, at what price, to which seat, and that price against the winner's valuation. */
export interface AuctionMetrics {
  sold: boolean;
  price: number | null;
  winner: string | null;
  /** The price as a share of the winner's private valuation (≤ 1: the winner paid no more than it was worth to it). */
  priceOverValuation: number | null;
}

/** The split's result: whether a proposal passed, the shares by seat and who proposed it. */
export interface SplitMetrics {
  passed: boolean;
  shares: Record<string, number> | null;
  proposer: string | null;
}

/** Auction metrics from the recorded outcome (computed from the moves when the episode was recorded). */
export function auctionMetrics(episode: EpisodeRecord, scenario: Scenario | undefined): AuctionMetrics | null {
  const o = episode.outcome;
  if (o.kind !== 'auction') return null;
  const task = scenario?.seats.find((s) => s.seat === o.winner)?.task;
  const valuation = task?.kind === 'auction' ? task.valuation : null;
  return { sold: o.sold, price: o.price, winner: o.winner, priceOverValuation: o.price !== null && valuation ? o.price / valuation : null };
}

/** Split metrics from the recorded outcome. */
export function splitMetrics(episode: EpisodeRecord): SplitMetrics | null {
  const o = episode.outcome;
  if (o.kind !== 'split') return null;
  return { passed: o.passed, shares: o.shares, proposer: o.proposer };
}
