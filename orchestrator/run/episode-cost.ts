import { estimateCost } from '../../llm/cost.js';
import type { EpisodeRecord, Usage } from '../../protocol/index.js';

/** One priced LLM call: a live turn, or the script writer's one call. */
export interface PricedCall {
  seat: string;
  provider?: string | undefined;
  model?: string | undefined;
  usage?: Usage | undefined;
}

/**
 * Every call of an episode that run.json prices (stats.ts counts the same): its turns (live modes) or the
 * script writer's call; not the turns a fork replayed from its parent (paid for there), and not a seat
 * whose usage a remote agent only reported (`provenance: "reported"`: serve without --trust-remote-usage).
 */
export function pricedCalls(r: EpisodeRecord): PricedCall[] {
  if (r.mode === 'script') return r.scriptWriter ? [{ ...r.scriptWriter, seat: 'script' }] : [];
  // Partial records (the watch page's tests) may carry no seats: nothing reported then.
  const reported = new Set((r.seats ?? []).filter((s) => s.provenance === 'reported').map((s) => s.seat));
  return r.turns.filter((t) => !reported.has(t.seat) && !(r.fork && t.turn < r.fork.at));
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
