import { describe, expect, it } from 'vitest';
import { BatchAnsweredClient } from '../batch/batch-answered-client.js';
import type { BatchAnswer } from '../batch/batch-results.js';
import { ScriptedClient } from '../testing/fake-judge.js';
import { episode, openScenario } from '../testing/fixtures.js';
import { comparePairs, matchEpisodes, presentationOrder } from './naturalness.js';
import { naturalnessBatchRequests } from './naturalness-batch.js';
import { memoryRunDir, scriptAndAgentsRuns } from '../testing/compare-runs.js';

/** compare --batch in memory: the requests it submits, and how batch replies reach the live compare path. */
const { a, b } = scriptAndAgentsRuns();
const op = openScenario();
const pairs = matchEpisodes(a, 'script', b, 'agents');
/** A judge preferring whichever conversation is shown first. */
const firstWins = () => JSON.stringify({ reasoning: 'the first one', more_natural: '1' });
const ok = (content: string): BatchAnswer => ({ ok: true, content, usage: { prompt: 10, completion: 5, cached: 0 }, model: 'gpt-4' });

describe('naturalness batch requests', () => {
  it.each(['parley', 'paper'] as const)('are exactly the first requests a live compare sends (%s question), in the same seeded order', async (style) => {
    const live = new ScriptedClient(firstWins);
    await comparePairs(pairs, live, { seed: 5, concurrency: 1, style });
    const requests = naturalnessBatchRequests(pairs, presentationOrder(pairs.length, 5), style);
    expect(requests.map((r) => r.request)).toEqual(live.requests);
    expect(requests.map((r) => r.pairKey)).toEqual(pairs.map((p) => p.key));
  });

  it("name each pair and its request's content in the custom_id: another order or question is another id", () => {
    const ids = (seed: number, style: 'paper' | 'parley') => naturalnessBatchRequests(pairs, presentationOrder(pairs.length, seed), style).map((r) => r.customId);
    const base = ids(5, 'parley');
    expect(new Set(base).size).toBe(pairs.length);
    base.forEach((id, i) => expect(id).toMatch(new RegExp(`^${pairs[i]!.key.replace(/[/.]/g, '\\$&')}#[0-9a-f]{16}$`)));
    expect(ids(5, 'parley')).toEqual(base);
    expect(ids(5, 'paper').filter((id) => base.includes(id))).toEqual([]);
    const flipped = naturalnessBatchRequests(pairs, presentationOrder(pairs.length, 5).map((x) => !x), 'parley').map((r) => r.customId);
    expect(flipped.filter((id) => base.includes(id))).toEqual([]);
  });

  it('answered from the batch, give the verdicts of a live compare; what the batch failed is asked live', async () => {
    const reference = await comparePairs(pairs, new ScriptedClient(firstWins), { seed: 5, concurrency: 2 });
    const requests = naturalnessBatchRequests(pairs, presentationOrder(pairs.length, 5), 'parley');
    const answers = new Map<string, BatchAnswer>(requests.map((r, i) => [r.customId, i === 1 ? { ok: false, message: 'batch request failed: HTTP 500' } : ok(firstWins())]));
    const live = new ScriptedClient(firstWins);
    const client = new BatchAnsweredClient(live, requests, answers);
    const batched = await comparePairs(pairs, client, { seed: 5, concurrency: 2 });
    expect(client.answered).toBe(2);
    expect(live.requests).toEqual([requests[1]!.request]);
    // The verdicts name the live client's provider and model either way.
    expect(batched).toEqual(reference);
  });

  it('an unusable batch reply gets its second attempt live, as a live compare retries', async () => {
    const requests = naturalnessBatchRequests(pairs.slice(0, 1), presentationOrder(1, 5), 'parley');
    const live = new ScriptedClient(firstWins);
    const client = new BatchAnsweredClient(live, requests, new Map([[requests[0]!.customId, ok('{"more_natural": "3"}')]]));
    const r = await comparePairs(pairs.slice(0, 1), client, { seed: 5, concurrency: 1 });
    expect([client.answered, client.live]).toEqual([1, 1]);
    expect(live.requests).toEqual([requests[0]!.request]);
    expect(r.n).toBe(1);
  });

  it('two pairs whose questions read the same each get their own batch verdict, by custom_id (issue 35)', async () => {
    const same = (dir: string, mode: 'script' | 'agents', text: string) =>
      memoryRunDir(dir, [0, 1].map((repeat) => episode({ scenario: op, mode, repeat, moves: [['a', 'speak', text]] })));
    const twins = matchEpisodes(same('A', 'script', 'the same words'), 'script', same('B', 'agents', 'other same words'), 'agents');
    const shown = twins.map(() => true);
    const requests = naturalnessBatchRequests(twins, shown, 'parley');
    expect(requests[0]!.request).toEqual(requests[1]!.request);
    // The first pair's reply says the first conversation, the second's the second.
    const answers = new Map<string, BatchAnswer>(requests.map((r, i) => [r.customId, ok(JSON.stringify({ reasoning: `pair ${i}`, more_natural: String(i + 1) }))]));
    // Collected in the other order (a later round's record, say): text alone would hand each pair the other's reply.
    const client = new BatchAnsweredClient(new ScriptedClient(firstWins), [...requests].reverse(), answers);
    const ids = new Map(requests.map((r) => [r.pairKey, new Set([r.customId])]));
    const r = await comparePairs(twins, client, { seed: 5, concurrency: 1, orders: 'one', clientFor: (pair) => client.forIds(ids.get(pair.key)!) });
    const reasons = r.verdicts.map((v) => (v.ok ? v.reasoning : v.error));
    expect(reasons).toEqual(['pair 0', 'pair 1']);
    expect(client.answered).toBe(2);
  });
});
