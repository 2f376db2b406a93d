import { estimateCost } from '../../llm/cost.js';
import type { EpisodeRecord, Usage } from '../../protocol/index.js';

/** One priced LLM call: a live turn, or the script writer's one call. */
export interface PricedCall {
  seat: string;
  provider?: string | undefined;
  model?: string | undefined;
  usage?: Usage | undefined;
}

/** Every priced call of an episode: its turns (live modes) or the script writer's call. */
export function pricedCalls(r: EpisodeRecord): PricedCall[] {
  if (r.mode === 'script') return r.scriptWriter ? [{ ...r.scriptWriter, seat: 'script' }] : [];
  return r.turns;
}

/**
 * A call's tokens and estimated US$ (llm/cost.ts); `usd` null when the model has no known price (or the
 * price table is unreadable): unknown is not free, so callers report it as unpriced.
 */
export function callCost(c: PricedCall): { tokens: number; usd: number | null } {
  if (!c.usage) return { tokens: 0, usd: 0 };
  const tokens = c.usage.prompt + c.usage.completion;
  if (!c.provider || !c.model) return { tokens, usd: null };
  try {
    return { tokens, usd: estimateCost(c.provider, c.model, c.usage) };
  } catch {
    return { tokens, usd: null };
  }
}
