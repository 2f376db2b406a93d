import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateCost, estimateTotalCost, loadPrices, priceOf } from './cost.js';

describe('price table and cost estimate', () => {
  it('prices the paper models from the shipped table', () => {
    // gpt-3.5-turbo: $0.5 / $1.5 per 1M.
    expect(estimateCost('openai', 'gpt-3.5-turbo', { prompt: 1_000_000, completion: 1_000_000, cached: 0 })).toBeCloseTo(2.0, 6);
    expect(estimateCost('mistral', 'open-mixtral-8x7b', { prompt: 2000, completion: 1000, cached: 0 })).toBeCloseTo(0.0021, 8);
  });

  it('bills cached prompt tokens at the cached price, longest prefix winning', () => {
    const table = { 'openai:gpt-4o*': { prompt: 2.5, completion: 10, cached: 1.25 }, 'openai:gpt-4o-mini*': { prompt: 0.15, completion: 0.6, cached: 0.075 } };
    expect(priceOf('openai', 'gpt-4o-mini-2024-07-18', table)).toEqual(table['openai:gpt-4o-mini*']);
    expect(estimateCost('openai', 'gpt-4o-2024-08-06', { prompt: 1_000_000, completion: 0, cached: 400_000 }, table)).toBeCloseTo(0.6 * 2.5 + 0.4 * 1.25, 6);
  });

  it('returns null for an unknown model (unknown is not free) and totals name what was unpriced', () => {
    expect(estimateCost('openai', 'my-local-llama', { prompt: 10, completion: 10, cached: 0 })).toBeNull();
    const total = estimateTotalCost([
      { provider: 'openai', model: 'gpt-3.5-turbo', usage: { prompt: 1_000_000, completion: 0, cached: 0 } },
      { provider: 'openai', model: 'my-local-llama', usage: { prompt: 5, completion: 5, cached: 0 } },
      { provider: 'bot' },
    ]);
    expect(total).toEqual({ usd: 0.5, unpriced: ['openai:my-local-llama'] });
  });

  it('loads a user-edited table and names a broken entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-prices-'));
    try {
      const good = join(dir, 'good.json');
      writeFileSync(good, JSON.stringify({ _note: 'mine', 'openai:local*': { prompt: 1, completion: 2 } }));
      const table = loadPrices(good);
      expect(estimateCost('openai', 'local-7b', { prompt: 1_000_000, completion: 1_000_000, cached: 500_000 }, table)).toBe(3);
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ 'openai:x': { prompt: 'cheap', completion: 1 } }));
      expect(() => loadPrices(bad)).toThrow(/'openai:x'/);
      expect(() => loadPrices(join(dir, 'missing.json'))).toThrow(/does not exist/);
      // Fine-tuning prices (issue 14) are kept, and checked like the others.
      writeFileSync(good, JSON.stringify({ 'openai:gpt-3.5-turbo*': { prompt: 0.5, completion: 1.5, training: 8 } }));
      expect(priceOf('openai', 'gpt-3.5-turbo-0125', loadPrices(good))?.training).toBe(8);
      writeFileSync(bad, JSON.stringify({ 'openai:y': { prompt: 1, completion: 1, training: -1 } }));
      expect(() => loadPrices(bad)).toThrow(/'openai:y'.*training/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
