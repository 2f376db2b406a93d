import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { readEvaluation } from '../evaluation.js';

/** CraigslistBargain metrics of one episode. */
export interface CraigslistMetrics {
  /** Deal from explicit moves (offer → accept). */
  deal: boolean;
  price: number | null;
  buyerTarget: number | null;
  sellerTarget: number | null;
  /**
   * Seat id → normalised utility of the final price (cocoa's normalised price):
   * seller (p − t_b)/(t_s − t_b), buyer (t_s − p)/(t_s − t_b). 1 = got its own target, 0 = got the
   * partner's target; outside [0, 1] beyond either. Empty without a deal or without both targets.
   */
  utility: Record<string, number>;
  /** The seller's normalised utility (the buyer's is 1 − it); null without a deal or targets. */
  sellerUtility: number | null;
  /** Deal as the LLM judge read it from the dialogue (`parley eval`); null when not judged or the judgement failed. */
  judgedDeal: boolean | null;
  judgedPrice: number | null;
  /**
   * The deal used for deal rates: the explicit one when the seats made one; otherwise the judge's
   * reading when there is one (LLM seats talk deals without moves); otherwise no deal.
   */
  effectiveDeal: boolean;
  effectivePrice: number | null;
}

/** Targets by role, from the seats' private task data. */
export function craigslistTargets(scenario: Scenario | undefined): { buyer: { seat: string; target: number } | null; seller: { seat: string; target: number } | null } {
  let buyer: { seat: string; target: number } | null = null;
  let seller: { seat: string; target: number } | null = null;
  for (const s of scenario?.seats ?? []) {
    if (s.task?.kind !== 'craigslist') continue;
    if (s.task.role === 'buyer') buyer = { seat: s.seat, target: s.task.target };
    else seller = { seat: s.seat, target: s.task.target };
  }
  return { buyer, seller };
}

/** Normalised utilities of a price for buyer and seller; empty when the targets coincide or are missing. */
export function normalisedUtility(price: number, targets: ReturnType<typeof craigslistTargets>): Record<string, number> {
  const { buyer, seller } = targets;
  if (!buyer || !seller || seller.target === buyer.target) return {};
  const sellerU = (price - buyer.target) / (seller.target - buyer.target);
  return { [seller.seat]: sellerU, [buyer.seat]: 1 - sellerU };
}

/** Craigslist metrics; null when the episode is not a Craigslist episode. */
export function craigslistMetrics(episode: EpisodeRecord, scenario: Scenario | undefined): CraigslistMetrics | null {
  if (episode.outcome.kind !== 'craigslist') return null;
  const targets = craigslistTargets(scenario);
  const { deal, price } = episode.outcome;
  const judged = readEvaluation(episode.evaluation)?.judge?.deal;
  const judgedDeal = judged?.ok ? judged.deal : null;
  const judgedPrice = judged?.ok && judged.deal ? judged.price : null;
  const effectiveDeal = deal || judgedDeal === true;
  const effectivePrice = deal ? price : judgedDeal ? judgedPrice : null;
  const utility = effectivePrice !== null ? normalisedUtility(effectivePrice, targets) : {};
  return {
    deal,
    price: deal ? price : null,
    buyerTarget: targets.buyer?.target ?? null,
    sellerTarget: targets.seller?.target ?? null,
    utility,
    sellerUtility: targets.seller && utility[targets.seller.seat] !== undefined ? utility[targets.seller.seat]! : null,
    judgedDeal,
    judgedPrice,
    effectiveDeal,
    effectivePrice,
  };
}
