import { describe, expect, it } from 'vitest';
import { Attribution } from '../../protocol/evaluation.js';
import { withJudgement, type EpisodeJudgement } from '../evaluation.js';
import { clScenario, episode } from '../testing/fixtures.js';
import { ScriptedClient } from '../testing/fake-judge.js';
import { attributeEpisode, readWeights, sharesOf } from './attribute-episode.js';

const scenario = clScenario();
const [a, b] = scenario.seats.map((s) => s.seat) as [string, string];
const record = episode({ scenario, moves: [[a, 'speak', 'hello'], [b, 'speak', 'hi'], [a, 'none', ''], [b, 'speak', '50?'], [a, 'speak', 'deal'], [b, 'leave', '']] });

/** A judgement that scored goal `goals[seat]` (or failed for a seat given null). */
function judgement(goals: Record<string, number | null>): EpisodeJudgement {
  return {
    judge: { spec: 'fake:judge', visibility: 'full', temperature: 0, promptVersion: 'p' },
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats: Object.fromEntries(Object.entries(goals).map(([s, g]) => [s, g === null ? { ok: false, error: { code: 'judge/bad_json', message: 'x', attempts: 2 } } : { ok: true, scores: { goal: { reasoning: 'r', score: g } } }])),
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  };
}

describe('eval --attribute: one seat\'s goal split over its moves', () => {
  it('weighs the seat\'s moves only (not its none turns) and splits the score by weight; the record schema checks the sum', async () => {
    const client = new ScriptedClient((req) => (req.messages[0]!.content.includes(`Participant weighed: ${scenario.seats[0]!.character.name}.`) ? '{"weights": {"turn 0": 1, "turn 4": 3}}' : '{"weights": {"turn 1": 0, "turn 3": 2, "turn 5": 2}}'));
    const split = await attributeEpisode(record, scenario, judgement({ [a]: 8, [b]: 3 }), { client, spec: 'fake:judge' });
    expect(split.seats[a]).toEqual({ ok: true, score: 8, shares: [{ turn: 0, weight: 1, share: 2 }, { turn: 4, weight: 3, share: 6 }] });
    expect(split.seats[b]).toEqual({ ok: true, score: 3, shares: [{ turn: 1, weight: 0, share: 0 }, { turn: 3, weight: 2, share: 1.5 }, { turn: 5, weight: 2, share: 1.5 }] });
    expect(split).toMatchObject({ of: 'fake:judge full', dimension: 'goal', calls: 2 });
    expect(Attribution.safeParse(split).success).toBe(true);
    const off = { ...split, seats: { ...split.seats, [a]: { ok: true, score: 8, shares: [{ turn: 0, weight: 1, share: 2 }, { turn: 4, weight: 3, share: 5.9 }] } } };
    expect(Attribution.safeParse(off).error?.issues[0]?.message).toContain('not to the score 8');
  });

  it('a reply it cannot use is retried once, then a coded error, never a guess', async () => {
    const bad = await attributeEpisode(record, scenario, judgement({ [a]: 8, [b]: null }), { client: new ScriptedClient(() => 'not json'), spec: 'fake:judge' });
    expect(bad.seats[a]).toMatchObject({ ok: false, error: { code: 'judge/attribution_bad_json', attempts: 2 } });
    expect(bad.seats[b]).toMatchObject({ ok: false, error: { code: 'judge/attribution_no_score' } });
    expect(bad.calls).toBe(2);
    const fixed = await attributeEpisode(record, scenario, judgement({ [a]: 8 }), { client: new ScriptedClient((_, n) => (n === 0 ? '{"weights": {"turn 0": 1}}' : '{"weights": {"turn 0": 1, "turn 4": 1}}')), spec: 'fake:judge' });
    expect(fixed.seats[a]).toMatchObject({ ok: true, shares: [{ share: 4 }, { share: 4 }] });
  });

  it('reads exactly the moves asked, each 0–3; all-zero weights split only a score of 0', () => {
    expect(readWeights('{"weights": {"turn 0": 1, "turn 2": 1}}', [0])).toMatchObject({ ok: false, code: 'judge/attribution_invalid', message: expect.stringContaining('turn 2') });
    expect(readWeights('{"weights": {"turn 0": 4}}', [0])).toMatchObject({ ok: false, code: 'judge/attribution_invalid' });
    expect(readWeights('{"weights": {"turn 0": 1.5}}', [0])).toMatchObject({ ok: false, code: 'judge/attribution_invalid' });
    expect(readWeights('{"weights": {}}', [0])).toMatchObject({ ok: false, code: 'judge/attribution_invalid' });
    expect(sharesOf([0, 2], [0, 0], 5)).toMatchObject({ ok: false, error: { code: 'judge/attribution_zero_weights' } });
    expect(sharesOf([0, 2], [0, 0], 0)).toEqual({ ok: true, score: 0, shares: [{ turn: 0, weight: 0, share: 0 }, { turn: 2, weight: 0, share: 0 }] });
  });

  it('a new judgement of the judge whose scores were split drops the split; another judge\'s leaves it', async () => {
    const first = judgement({ [a]: 8 });
    const attribution = await attributeEpisode(record, scenario, first, { client: new ScriptedClient(() => '{"weights": {"turn 0": 1, "turn 4": 1}}'), spec: 'fake:judge' });
    const evaluation = { ...withJudgement(null, first), attribution };
    const other = { ...judgement({ [a]: 2 }), judge: { ...first.judge, spec: 'fake:other' } };
    expect(withJudgement(evaluation, other).attribution).toBe(attribution);
    expect(withJudgement(evaluation, judgement({ [a]: 2 })).attribution).toBeUndefined();
  });
});
