import { describe, expect, it } from 'vitest';
import { ScriptedClient } from '../testing/fake-judge.js';
import { comparePairs, matchEpisodes, naturalnessRequest } from './naturalness.js';
import { positionBias, positionBiasOfPairs } from './position-bias.js';
import { scriptAndAgentsRuns } from '../testing/compare-runs.js';

const { a, b } = scriptAndAgentsRuns();
const pairs = matchEpisodes(a, 'script', b, 'agents');
const firstAlways = () => JSON.stringify({ reasoning: 'the first', more_natural: '1' });
/** Prefers whichever conversation holds AGENT, wherever it is shown. */
const agentAlways = (req: { messages: { content: string }[] }) => {
  const text = req.messages.at(-1)!.content;
  return JSON.stringify({ reasoning: 'agents', more_natural: text.indexOf('AGENT') < text.indexOf('Conversation 2:') ? '1' : '2' });
};

describe('naturalness in both orders', () => {
  it('asks each pair twice, once in each order; a judge that always picks the first position has consistency 0 and no wins', async () => {
    const client = new ScriptedClient(firstAlways);
    const r = await comparePairs(pairs, client, { seed: 3, concurrency: 1, orders: 'both' });
    expect(client.requests).toHaveLength(2 * pairs.length);
    // the two requests of a pair are the pair shown one way, then the other
    pairs.forEach((p, i) => {
      const [x, y] = [client.requests[2 * i]!, client.requests[2 * i + 1]!];
      expect([naturalnessRequest(p, true), naturalnessRequest(p, false)]).toContainEqual(x);
      expect([naturalnessRequest(p, true), naturalnessRequest(p, false)]).toContainEqual(y);
      expect(x).not.toEqual(y);
    });
    expect(r).toMatchObject({ n: 3, winsA: 0, winsB: 0, ties: 3, errors: 0 });
    expect(r.position.consistency).toMatchObject({ consistent: 0, pairs: 3, p: 0 });
    expect(r.position.firstWins).toMatchObject({ wins: 6, presentations: 6, p: 1 });
    expect(r.verdicts.every((v) => v.ok && v.winner === 'tie' && v.orders === 'both' && v.presentations!.length === 2)).toBe(true);
  });

  it('a judge that goes by content wins in both orders: consistency 1, first position half the time', async () => {
    const r = await comparePairs(pairs, new ScriptedClient(agentAlways), { seed: 3, concurrency: 2, orders: 'both' });
    expect(r).toMatchObject({ n: 3, winsA: 0, winsB: 3, ties: 0 });
    expect(r.position.consistency).toMatchObject({ consistent: 3, pairs: 3, p: 1 });
    expect(r.position.firstWins).toMatchObject({ wins: 3, presentations: 6, p: 0.5 });
    expect(r.position.firstWins.lo!).toBeLessThanOrEqual(0.5);
    expect(r.position.firstWins.hi!).toBeGreaterThanOrEqual(0.5);
  });

  it('one order keeps the paper design: one request per pair, no consistency figure', async () => {
    const client = new ScriptedClient(firstAlways);
    const r = await comparePairs(pairs, client, { seed: 3, concurrency: 1, orders: 'one' });
    expect(client.requests).toHaveLength(pairs.length);
    expect(r.ties).toBe(0);
    expect(r.position.consistency).toMatchObject({ pairs: 0, p: null });
    expect(r.position.firstWins).toMatchObject({ wins: 3, presentations: 3, p: 1 });
    expect(r.verdicts.every((v) => !('presentations' in v))).toBe(true);
  });

  it('an unanswered order leaves the pair unjudged, the answered order kept', async () => {
    const client = new ScriptedClient((_, n) => (n === 0 ? firstAlways() : 'not json'));
    const r = await comparePairs(pairs.slice(0, 1), client, { seed: 3, concurrency: 1, orders: 'both' });
    expect(r).toMatchObject({ n: 0, errors: 1 });
    expect(r.verdicts[0]).toMatchObject({ ok: false, error: { code: 'judge/bad_json' }, presentations: [{ ok: true }, { ok: false }] });
  });

  it('omitting the reasoning asks for the choice only', () => {
    const ask = naturalnessRequest(pairs[0]!, true, 'paper');
    const omit = naturalnessRequest(pairs[0]!, true, 'paper', 'omit');
    expect(ask.messages[0]!.content).toContain('"reasoning"');
    expect(omit.messages[0]!.content).not.toContain('reasoning');
    expect(omit.messages[0]!.content).toContain('{"more_natural": "1" or "2"}');
    const parley = naturalnessRequest(pairs[0]!, true, 'parley', 'omit');
    expect(JSON.stringify(parley.json)).not.toContain('reasoning');
  });
});

describe('position figures', () => {
  it('read old one-order verdict files (no presentations) as one presentation each', () => {
    const p = positionBias([
      { ok: true, aShownFirst: true, winner: 'A' },
      { ok: true, aShownFirst: false, winner: 'A' },
      { ok: false, aShownFirst: true },
    ]);
    expect(p.firstWins).toMatchObject({ wins: 1, presentations: 2, p: 0.5 });
    expect(p.consistency.pairs).toBe(0);
  });

  it('count a pair as consistent only when both orders chose the same side', () => {
    const p = positionBiasOfPairs([
      [{ aShownFirst: true, winner: 'A' }, { aShownFirst: false, winner: 'A' }],
      [{ aShownFirst: true, winner: 'A' }, { aShownFirst: false, winner: 'B' }],
    ]);
    expect(p.consistency).toMatchObject({ consistent: 1, pairs: 2, p: 0.5 });
    expect(p.consistency.lo!).toBeGreaterThan(0);
    expect(p.consistency.hi!).toBeLessThan(1);
  });
});
