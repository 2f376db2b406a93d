import { existsSync, readFileSync } from 'node:fs';
import type { Usage } from '../protocol/index.js';
import { allProviders } from './providers/registry.js';

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

/**
 * Loads a price table: `file`, else `$PARLEY_PRICES` (keys `provider:model`), else the union of the
 * registered providers' own tables (llm/providers/<name>.prices.json, keys `model`).
 * Throws naming the file and key when an entry is not a price (an edit gone wrong must not price at 0).
 */
export function loadPrices(file: string | undefined = process.env.PARLEY_PRICES || undefined): PriceTable {
  if (file) return checkedTable(readJson(file), `price table ${file}`, '');
  const table: PriceTable = {};
  for (const p of allProviders()) {
    const where = typeof p.prices === 'string' ? `price table ${p.prices}` : `price table of provider ${p.name}`;
    Object.assign(table, checkedTable(typeof p.prices === 'string' ? readJson(p.prices) : p.prices, where, `${p.name}:`));
  }
  return table;
}

function readJson(file: string): unknown {
  if (!existsSync(file)) throw new Error(`price table ${file} does not exist`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`price table ${file} is not valid JSON`, { cause: err });
  }
}

/** The prices of `raw`, each key prefixed with `prefix`; keys starting with `_` are comments. */
function checkedTable(raw: unknown, where: string, prefix: string): PriceTable {
  const table: PriceTable = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key.startsWith('_')) continue;
    const p = value as Partial<Price> | null;
    const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    if (!p || !ok(p.prompt) || !ok(p.completion) || (p.cached !== undefined && !ok(p.cached)) || (p.training !== undefined && !ok(p.training))) {
      throw new Error(`${where}: '${key}' needs non-negative numbers prompt, completion (and optional cached, training)`);
    }
    table[`${prefix}${key}`] = {
      prompt: p.prompt!,
      completion: p.completion!,
      ...(p.cached !== undefined ? { cached: p.cached } : {}),
      ...(p.training !== undefined ? { training: p.training } : {}),
    };
  }
  return table;
}

/** The default table, rebuilt when the registry's providers change (a provider registered later brings its prices). */
let cached: { providers: string; table: PriceTable } | undefined;
function defaultTable(): PriceTable {
  const providers = allProviders().map((p) => p.name).join(',');
  if (cached?.providers !== providers) cached = { providers, table: loadPrices() };
  return cached.table;
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
