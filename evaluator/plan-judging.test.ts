import { describe, expect, it } from 'vitest';
import { withJudgement } from './evaluation.js';
import { judgeCalls } from './judge/prompt.js';
import { planJudging } from './plan-judging.js';
import { GOAL_RUBRIC, SOTOPIA_RUBRIC } from './rubric/builtin.js';
import { rubricRef } from './rubric/rubric.js';
import type { RunDir } from './run-dir.js';
import { clScenario, episode, openScenario } from './testing/fixtures.js';

const open = openScenario();
const cl = clScenario();

function run(): RunDir {
  const done = withJudgement(null, {
    judge: { spec: 'openai:gpt-4', visibility: 'full', temperature: 0, promptVersion: 'p', rubric: rubricRef(GOAL_RUBRIC) },
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats: { a: { ok: true, scores: { goal: { reasoning: 'r', score: 5 } } }, b: { ok: true, scores: { goal: { reasoning: 'r', score: 5 } } } },
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  });
  const records = [
    episode({ scenario: open, moves: [['a', 'speak', 'hello']], evaluation: done }),
    episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?']] }),
    episode({ scenario: open, repeat: 1, moves: [['a', null]], status: 'failed' }),
  ];
  return { dir: '/tmp/plan', run: null, scenarios: new Map([[open.id, open], [cl.id, cl]]), episodes: records.map((record, i) => ({ record, raw: {}, line: i + 1 })), tornBytes: 0 };
}

describe('planning judge calls', () => {
  it('counts the real requests: per judge, calls, their characters, the scores and deal questions asked', () => {
    const r = run();
    const [plan] = planJudging(r, { specs: ['openai:gpt-4'], rubric: SOTOPIA_RUBRIC, visibility: 'full', view: 'parley', missingOnly: false });
    const calls = [...judgeCalls(r.episodes[0]!.record, open, 'full', 'parley'), ...judgeCalls(r.episodes[1]!.record, cl, 'full', 'parley')];
    expect(plan).toEqual({
      spec: 'openai:gpt-4',
      episodes: 2,
      skippedFailed: 1,
      skippedDone: 0,
      calls: 3,
      promptChars: calls.reduce((a, c) => a + String(c.messages[0]!.content).length, 0),
      seatDimensions: 2 * 2 * 7,
      dealCalls: 1,
    });
  });

  it('skips, under --missing, what this judge already scored on this rubric only', () => {
    const goal = planJudging(run(), { specs: ['openai:gpt-4', 'openai:gpt-4o'], rubric: GOAL_RUBRIC, visibility: 'full', view: 'parley', missingOnly: true });
    expect(goal.map((p) => [p.spec, p.episodes, p.skippedDone, p.calls, p.seatDimensions, p.dealCalls])).toEqual([
      ['openai:gpt-4', 1, 1, 1, 2, 0],
      ['openai:gpt-4o', 2, 0, 2, 4, 0],
    ]);
    const [sotopia] = planJudging(run(), { specs: ['openai:gpt-4'], rubric: SOTOPIA_RUBRIC, visibility: 'full', view: 'parley', missingOnly: true });
    expect(sotopia!.skippedDone).toBe(0);
  });
});
