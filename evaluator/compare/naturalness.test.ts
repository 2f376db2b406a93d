import { describe, expect, it } from 'vitest';
import { ScriptedClient } from '../testing/fake-judge.js';
import { mfScenario, openScenario } from '../testing/fixtures.js';
import { comparePairs, matchEpisodes } from './naturalness.js';
import { scriptAndAgentsRuns } from '../testing/compare-runs.js';

const { a, b } = scriptAndAgentsRuns(true);
const mf = mfScenario();
const op = openScenario();

describe('pairwise naturalness', () => {
  it('matches episodes by scenario, pair and repeat, falling back to any ok repeat', () => {
    const pairs = matchEpisodes(a, 'script', b, 'agents');
    expect(pairs.map((p) => p.key)).toEqual(['mf-1/p1/0', 'open-1/p1/0', 'open-1/p1/1']);
    expect(pairs[2]!.b.repeat).toBe(0); // B's repeat 1 failed
    expect(matchEpisodes(a, 'agents', b, 'agents')).toEqual([]);
  });

  it('shows the two sides in seeded random order and maps the answer back to A or B', async () => {
    // The judge always prefers whichever conversation contains AGENT.
    const client = new ScriptedClient((req) => {
      const text = req.messages[1]!.content;
      const first = text.indexOf('AGENT') < text.indexOf('Conversation 2:') ? '1' : '2';
      return JSON.stringify({ reasoning: 'agents sound real', more_natural: first });
    });
    const pairs = matchEpisodes(a, 'script', b, 'agents');
    const r = await comparePairs(pairs, client, { seed: 3, concurrency: 2 });
    expect(r.n).toBe(3);
    expect(r.winsA).toBe(0);
    expect(r.verdicts.every((v) => v.ok && v.winner === 'B')).toBe(true);
    expect(r.rate.p).toBe(0);
    expect(r.rate.hi!).toBeCloseTo(0.5615, 3);
    // both presentation orders occur across seeds, and one seed always gives the same order
    const orders = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) orders.add((await comparePairs(pairs, client, { seed, concurrency: 1 })).verdicts.map((v) => v.aShownFirst).join());
    expect(orders.size).toBeGreaterThan(1);
    const again = await comparePairs(pairs, client, { seed: 3, concurrency: 1 });
    expect(again.verdicts.map((v) => v.aShownFirst)).toEqual(r.verdicts.map((v) => v.aShownFirst));
    expect(client.requests.every((q) => q.temperature === 0)).toBe(true);
  });

  it('retries a bad answer once, then counts the pair as an error, not a win', async () => {
    const client = new ScriptedClient(() => JSON.stringify({ reasoning: 'x', more_natural: '3' }));
    const r = await comparePairs(matchEpisodes(a, 'script', b, 'agents').slice(0, 1), client, { seed: 1, concurrency: 1 });
    expect(client.requests).toHaveLength(2);
    expect(r).toMatchObject({ n: 0, errors: 1, winsA: 0, rate: { p: null } });
    expect(r.verdicts[0]).toMatchObject({ ok: false, error: { code: 'judge/invalid_scores', attempts: 2 } });
  });
});

describe("the paper's naturalness question (issue 10: compare --protocol paper)", () => {
  it("gives the annotators' context (backgrounds and goals), no judge-only text and no leakage criterion", async () => {
    const client = new ScriptedClient(() => JSON.stringify({ reasoning: 'r', more_natural: '1' }));
    const pairs = matchEpisodes(a, 'script', b, 'agents');
    const r = await comparePairs(pairs.slice(1, 2), client, { seed: 1, concurrency: 1, style: 'paper' });
    expect(r.n).toBe(1);
    const req = client.requests[0]!;
    expect(req.messages.map((m) => m.role)).toEqual(['user']);
    const text = req.messages[0]!.content;
    for (const seat of op.seats) {
      expect(text).toContain(`${seat.character.name}'s goal: ${seat.goal}`);
      expect(text).toContain(`${seat.character.name}'s background:`);
    }
    expect(text).toContain('Which of the two interactions sounds more like a natural interaction that two people would have in this scenario?');
    expect(text).not.toContain(op.judgeOnly!);
    expect(text).not.toMatch(/shared|leak|over-polite/i);
    // the parley question keeps its public-setting context and cues
    const parley = new ScriptedClient(() => JSON.stringify({ reasoning: 'r', more_natural: '1' }));
    await comparePairs(pairs.slice(1, 2), parley, { seed: 1, concurrency: 1 });
    expect(parley.requests[0]!.messages[1]!.content).not.toContain("'s goal:");
  });
});
