import { priceOf, type PriceTable } from '../llm/index.js';
import { modelRefOf } from '../protocol/index.js';
import type { TrainingExample } from './examples.js';
import { ESTIMATE, type TokenCounter } from './tokens.js';

/** What an export holds and what training on it would cost. */
export interface ExportSummary {
  examples: number;
  episodes: number;
  scenarios: number;
  tokensPerExample: { p50: number; max: number } | null;
  /** How tokens were counted: the base model's tokenizer (`cl100k_base`, `o200k_base`) or `estimate`. */
  tokenizer: string;
  trainingTokens: number;
  /** Estimated training cost: tokens × epochs × the base model's `training` price; null when the table has none. */
  cost: { base: string; epochs: number; usd: number | null };
}

function median(sorted: readonly number[]): number {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2]! : Math.round((sorted[n / 2 - 1]! + sorted[n / 2]!) / 2);
}

/** Counts, token sizes (by `counter`) and the estimated cost of training `base` (`provider:model`) for `epochs`. */
export function summarize(examples: readonly TrainingExample[], base: string, epochs: number, prices?: PriceTable, counter: TokenCounter = ESTIMATE): ExportSummary {
  const tokens = examples.map((e) => counter.count(e.messages)).sort((a, b) => a - b);
  const trainingTokens = tokens.reduce((a, b) => a + b, 0);
  const ref = modelRefOf(base);
  const price = ref ? priceOf(ref.provider, ref.model, prices) : undefined;
  return {
    examples: examples.length,
    episodes: new Set(examples.map((e) => `${e.runDir}\u0000${e.episodeId}`)).size,
    scenarios: new Set(examples.map((e) => e.scenarioId)).size,
    tokensPerExample: tokens.length ? { p50: median(tokens), max: tokens.at(-1)! } : null,
    tokenizer: counter.method,
    trainingTokens,
    cost: { base, epochs, usd: price?.training !== undefined ? (trainingTokens * epochs * price.training) / 1e6 : null },
  };
}

/** The summary as lines for the terminal. */
export function summaryLines(s: ExportSummary): string[] {
  const t = s.tokensPerExample;
  return [
    `${s.examples} examples from ${s.episodes} episodes, ${s.scenarios} scenarios`,
    `tokens per example (${s.tokenizer === 'estimate' ? 'estimated, ~4 characters a token' : s.tokenizer}): ${t ? `p50 ${t.p50}, max ${t.max}` : '—'}; ${s.trainingTokens} in all`,
    `estimated training cost for ${s.cost.base} × ${s.cost.epochs} epochs: ${s.cost.usd === null ? `unknown (no "training" price for ${s.cost.base} in the price table)` : `$${s.cost.usd.toFixed(2)}`}`,
  ];
}
