import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Usage } from '../protocol/index.js';

/** US$ per million tokens for one model. */
export interface Price {
  prompt: number;
  completion: number;
  /** Prompt tokens served from cache; defaults to the prompt price. */
  cached?: number;
  /** Fine-tuning: US$ per million training tokens (tokens in the file × epochs), where the provider trains this model. */
  training?: number;
}

/** `provider:model` (exact) or `provider:prefix*` → price. Keys starting with `_` are comments. */
export type PriceTable = Record<string, Price>;

/** The editable table shipped with Parley. */
export const DEFAULT_PRICES_FILE = fileURLToPath(new URL('./prices.json', import.meta.url));

/**
 * Loads a price table: `file`, else `$PARLEY_PRICES`, else the shipped `llm/prices.json`.
 * Throws naming the file and key when an entry is not a price (an edit gone wrong must not price at 0).
 */
export function loadPrices(file: string = process.env.PARLEY_PRICES || DEFAULT_PRICES_FILE): PriceTable {
  if (!existsSync(file)) throw new Error(`price table ${file} does not exist`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`price table ${file} is not valid JSON`, { cause: err });
  }
  const table: PriceTable = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key.startsWith('_')) continue;
    const p = value as Partial<Price> | null;
    const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    if (!p || !ok(p.prompt) || !ok(p.completion) || (p.cached !== undefined && !ok(p.cached)) || (p.training !== undefined && !ok(p.training))) {
      throw new Error(`price table ${file}: '${key}' needs non-negative numbers prompt, completion (and optional cached, training)`);
    }
    table[key] = {
      prompt: p.prompt!,
      completion: p.completion!,
      ...(p.cached !== undefined ? { cached: p.cached } : {}),
      ...(p.training !== undefined ? { training: p.training } : {}),
    };
  }
  return table;
}

let cached: PriceTable | undefined;
function defaultTable(): PriceTable {
  cached ??= loadPrices();
  return cached;
}

/** The price of a model: the exact key, else the longest matching `prefix*` key; undefined when unknown. */
export function priceOf(provider: string, model: string, table: PriceTable = defaultTable()): Price | undefined {
  const id = `${provider}:${model}`;
  if (table[id]) return table[id];
  let best: { len: number; price: Price } | undefined;
  for (const [key, price] of Object.entries(table)) {
    if (!key.endsWith('*')) continue;
    const prefix = key.slice(0, -1);
    if (id.startsWith(prefix) && (!best || prefix.length > best.len)) best = { len: prefix.length, price };
  }
  return best?.price;
}

/**
 * Estimated US$ cost of `usage` on `provider:model`; null when the table has no price for it (unknown
 * is not free). Cached tokens are part of the prompt count and are billed at the cached price.
 */
export function estimateCost(provider: string, model: string, usage: Usage, table?: PriceTable): number | null {
  const price = priceOf(provider, model, table);
  if (!price) return null;
  const cachedTokens = Math.min(usage.cached ?? 0, usage.prompt);
  const fresh = usage.prompt - cachedTokens;
  const dollars = (fresh * price.prompt + cachedTokens * (price.cached ?? price.prompt) + usage.completion * price.completion) / 1_000_000;
  return Math.round(dollars * 1e6) / 1e6;
}

/** A run's cost: the sum over calls of known price, plus the models that had no price. */
export function estimateTotalCost(
  items: Array<{ provider?: string; model?: string; usage?: Usage }>,
  table?: PriceTable,
): { usd: number; unpriced: string[] } {
  let usd = 0;
  const unpriced = new Set<string>();
  for (const item of items) {
    if (!item.usage || !item.provider || !item.model) continue;
    const cost = estimateCost(item.provider, item.model, item.usage, table);
    if (cost === null) unpriced.add(`${item.provider}:${item.model}`);
    else usd += cost;
  }
  return { usd: Math.round(usd * 1e6) / 1e6, unpriced: [...unpriced].sort() };
}
