import { createHash } from 'node:crypto';
import type { ChatRequest } from '../../llm/types.js';
import { naturalnessRequest, type ComparePair, type CompareStyle, type ReasoningAsk } from './naturalness.js';

/**
 * The naturalness requests of `parley compare --batch`: exactly the first request a live compare sends
 * for each presentation of each pair (naturalnessRequest, in the same seeded order; two per pair with both
 * orders), each under a `custom_id` that names both
 * the pair and the request's content. So a batch submitted before a run directory changed (a pair's
 * episode replaced, a pair added) can never lend its reply to a different question: an id whose content
 * no longer matches is not among the ids sent now, and that pair is asked live.
 */
export interface NaturalnessBatchRequest {
  /** `<pair key>#<sha256 of the request, 16 hex>`: only ever a key into this list, never a path. */
  customId: string;
  pairKey: string;
  request: ChatRequest;
}

/** `shown[i]`: the presentations of pair i (`presentations()`), or one boolean per pair (one order). */
export function naturalnessBatchRequests(pairs: readonly ComparePair[], shown: readonly (boolean | readonly boolean[])[], style: CompareStyle, reasoning: ReasoningAsk = 'ask'): NaturalnessBatchRequest[] {
  return pairs.flatMap((pair, i) => {
    const orders = shown[i]!;
    return (typeof orders === 'boolean' ? [orders] : orders).map((aShownFirst) => {
      const request = naturalnessRequest(pair, aShownFirst, style, reasoning);
      const digest = createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 16);
      return { customId: `${pair.key}#${digest}`, pairKey: pair.key, request };
    });
  });
}
