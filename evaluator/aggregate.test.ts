import { describe, expect, it } from 'vitest';
import { aggregate, metricValue, pairedGaps } from './aggregate.js';
import { episodeMetrics } from './metrics/episode-metrics.js';
import { clScenario, episode, mfScenario, openScenario } from './testing/fixtures.js';
import { withJudgement } from './evaluation.js';
import { SOTOPIA_RUBRIC } from './rubric/builtin.js';
import { parseRubric } from './rubric/load-rubric.js';
import { rubricRef, type Rubric } from './rubric/rubric.js';

const success = { kind: 'mutual_friends', selections: { a: 'Jane Doe', b: 'Jane Doe' }, answer: 'Jane Doe', success: true } as const;

function runOf() {
  const scenarios = [mfScenario('mf-1'), mfScenario('mf-2'), mfScenario('mf-3')];
  const eps = [];
  // script succeeds on all three; agents only on mf-3.
  for (const s of scenarios) eps.push(episode({ scenario: s, mode: 'script', moves: [['a', 'speak', 'Jane Doe?'], ['b', 'speak', 'yes']], outcome: success }));
  for (const s of scenarios) eps.push(episode({ scenario: s, mode: 'agents', moves: [['a', 'speak', 'hello there friend'], ['b', 'speak', 'Jane Doe?']], ...(s.id === 'mf-3' ? { outcome: success } : {}) }));
  // a failed agents episode of another scenario: excluded from means, counted.
  const o = openScenario();
  eps.push(episode({ scenario: o, mode: 'agents', moves: [['a', null]], status: 'failed' }));
  const all = [...scenarios, o];
  return eps.map((e) => episodeMetrics(e, all.find((s) => s.id === e.scenarioId)));
}

describe('aggregate', () => {
  it('groups by mode × models × subset, excludes failed episodes and counts them', () => {
    const rows = aggregate(runOf());
    const agentsAll = rows.find((r) => r.mode === 'agents' && r.subset === 'all')!;
    expect(agentsAll.episodes).toBe(4);
    expect(agentsAll.failed).toBe(1);
    expect(agentsAll.metrics.success.n).toBe(3);
    expect(agentsAll.metrics.success.mean).toBeCloseTo(1 / 3, 10);
    expect(agentsAll.metrics.turns.mean).toBe(2);
    const scriptMf = rows.find((r) => r.mode === 'script' && r.subset === 'mutual_friends')!;
    expect(scriptMf.metrics.success).toMatchObject({ n: 3, mean: 1, lo: 1, hi: 1 });
    expect(scriptMf.models).toBe('writer bot:writer');
    // first mention: script at move 0 (position 0), agents at move 1 of 2 (position 1)
    expect(scriptMf.metrics.firstMention.mean).toBe(0);
    expect(rows.find((r) => r.mode === 'agents' && r.subset === 'mutual_friends')!.metrics.firstMention.mean).toBe(1);
    // no judge: judge metrics are empty, not zero
    expect(agentsAll.metrics.goal).toEqual({ n: 0, mean: null, lo: null, hi: null });
    // the 'hard' subset has only the failed episode
    const hard = rows.find((r) => r.subset === 'hard')!;
    expect(hard).toMatchObject({ episodes: 1, failed: 1 });
    expect(hard.metrics.turns.n).toBe(0);
  });

  it('pairs script and agents by (run, scenario, pair, repeat) and tests the gap', () => {
    const gaps = pairedGaps(runOf(), 'script', 'agents');
    const all = gaps.find((g) => g.subset === 'all')!;
    // diffs in success: [1, 1, 0] → mean 2/3, exact p = 4/8
    expect(all.metrics.success).toMatchObject({ n: 3, p: 0.5, method: 'exact' });
    expect(all.metrics.success!.mean).toBeCloseTo(2 / 3, 10);
    // words per turn: script (2+1)/2 = 1.5, agents (3+2)/2 = 2.5 → gap −1 in every pair
    expect(all.metrics.wordsPerTurn).toMatchObject({ n: 3, mean: -1, lo: -1, hi: -1, p: 0.25 });
    expect(all.metrics.goal).toBeUndefined();
    expect(all.modelsA).toBe('writer bot:writer');
  });

  it('does not pair episodes of different runs or repeats', () => {
    const s = clScenario();
    const ms = [
      episode({ scenario: s, mode: 'script', runId: 'r1' }),
      episode({ scenario: s, mode: 'agents', runId: 'r2' }),
      episode({ scenario: s, mode: 'agents', runId: 'r1', repeat: 1 }),
    ].map((e) => episodeMetrics(e, s));
    expect(pairedGaps(ms, 'script', 'agents')).toEqual([]);
  });

  it('gives missing, not zero, for metrics that do not apply', () => {
    const s = clScenario();
    const m = episodeMetrics(episode({ scenario: s, moves: [['a', 'action', 'offer $70']] }), s);
    expect(metricValue(m, 'wordsPerTurn')).toBeNull();
    expect(metricValue(m, 'firstMention')).toBeNull();
    expect(metricValue(m, 'deal')).toBe(0);
    expect(metricValue(m, 'goal')).toBeNull();
  });
});

describe('aggregate over rubrics', () => {
  it("keeps a rubric's scores apart from SOTOPIA-EVAL's, even for a dimension of the same name", () => {
    const o = openScenario();
    const parsed = parseRubric('name: mine\ndimensions:\n  - name: goal\n    range: [0, 3]\n    criteria: c\n', 'mine.yaml');
    if (!parsed.ok) throw new Error(parsed.message);
    const judged = (rubric: Rubric, goal: number) =>
      withJudgement(null, {
        judge: { spec: 'openai:gpt-4', visibility: 'full', temperature: 0, promptVersion: 'p', rubric: rubricRef(rubric) },
        evaluatedAt: '2024-01-01T00:00:00.000Z',
        seats: Object.fromEntries(['a', 'b'].map((s) => [s, { ok: true as const, scores: Object.fromEntries(rubric.dimensions.map((d) => [d.name, { reasoning: 'r', score: d.name === 'goal' ? goal : d.min }])) }])),
        calls: 1,
        usage: { prompt: 1, completion: 1 },
        latencyMs: 1,
      });
    const metrics = [
      episodeMetrics(episode({ scenario: o, repeat: 0, moves: [['a', 'speak', 'hi']], evaluation: judged(SOTOPIA_RUBRIC, 8) }), o),
      episodeMetrics(episode({ scenario: o, repeat: 1, moves: [['a', 'speak', 'hi']], evaluation: judged(parsed.rubric, 2) }), o),
    ];
    const all = aggregate(metrics).find((r) => r.subset === 'all')!;
    expect(all.metrics.goal).toMatchObject({ n: 1, mean: 8 });
    expect(all.judgedSeats).toBe(2);
    expect(all.rubrics).toHaveLength(1);
    expect(all.rubrics[0]).toMatchObject({ rubric: { name: 'mine' }, judgedSeats: 2, judgeErrors: 0, scores: { goal: { n: 1, mean: 2 } } });
  });

  it("keeps a rubric's table when a SOTOPIA-EVAL judgement is added later and becomes the episode's main one", () => {
    const o = openScenario();
    const parsed = parseRubric('name: mine\ndimensions:\n  - name: warmth\n    range: [0, 5]\n    criteria: c\n', 'mine.yaml');
    if (!parsed.ok) throw new Error(parsed.message);
    const judgement = (rubric: Rubric, score: number) => ({
      judge: { spec: 'openai:gpt-4', visibility: 'full' as const, temperature: 0, promptVersion: 'p', rubric: rubricRef(rubric) },
      evaluatedAt: '2024-01-01T00:00:00.000Z',
      seats: Object.fromEntries(['a', 'b'].map((s) => [s, { ok: true as const, scores: Object.fromEntries(rubric.dimensions.map((d) => [d.name, { reasoning: 'r', score }])) }])),
      calls: 1,
      usage: { prompt: 1, completion: 1 },
      latencyMs: 1,
    });
    const evaluation = withJudgement(withJudgement(null, judgement(parsed.rubric, 4)), judgement(SOTOPIA_RUBRIC, 0));
    expect(evaluation.judge!.judge.rubric!.name).toBe('sotopia');
    const all = aggregate([episodeMetrics(episode({ scenario: o, moves: [['a', 'speak', 'hi']], evaluation }), o)]).find((r) => r.subset === 'all')!;
    expect(all.metrics.goal).toMatchObject({ n: 1, mean: 0 });
    expect(all.rubrics).toHaveLength(1);
    expect(all.rubrics[0]).toMatchObject({ rubric: { name: 'mine' }, judgedSeats: 2, scores: { warmth: { n: 1, mean: 4 } } });
  });
});
