import { describe, expect, it } from 'vitest';
import { withJudgement, type EpisodeJudgement, type Evaluation } from './evaluation.js';
import { GOAL_RUBRIC, SOTOPIA_RUBRIC } from './rubric/builtin.js';
import { parseRubric } from './rubric/load-rubric.js';
import { rubricRef, type Rubric } from './rubric/rubric.js';
import { panelMeanScores, selectionScores } from './selection-scores.js';

const parsed = parseRubric('name: w\ndimensions:\n  - name: warmth\n    range: [0, 5]\n    criteria: c\n  - name: goal\n    range: [0, 3]\n    criteria: g\n', 'w.yaml');
if (!parsed.ok) throw new Error(parsed.message);
const warmth = parsed.rubric;

function judgement(spec: string, rubric: Rubric, score: number, visibility: 'full' | 'blind' = 'full'): EpisodeJudgement {
  return {
    judge: { spec, visibility, temperature: 0, promptVersion: 'p', rubric: rubricRef(rubric) },
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats: { a: { ok: true, scores: Object.fromEntries(rubric.dimensions.map((d) => [d.name, { reasoning: 'r', score }])) } },
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  };
}

describe('scores for the fine-tuning selection', () => {
  it("read a rubric file's dimensions next to SOTOPIA-EVAL's, the main judgement winning a shared name", () => {
    let ev: Evaluation | null = withJudgement(null, judgement('openai:gpt-4', SOTOPIA_RUBRIC, 7));
    ev = withJudgement(ev, judgement('openai:gpt-4', warmth, 2));
    expect(selectionScores(ev)!['a']).toEqual({ ok: true, scores: { believability: 7, relationship: 7, knowledge: 7, secret: 7, social_rules: 7, financial_and_material_benefits: 7, goal: 7, warmth: 2 } });
  });

  it('never read a blind judgement, and are null without evaluation', () => {
    let ev: Evaluation | null = withJudgement(null, judgement('openai:gpt-4', GOAL_RUBRIC, 4));
    ev = withJudgement(ev, judgement('openai:gpt-4', warmth, 5, 'blind'));
    expect(selectionScores(ev)!['a']).toEqual({ ok: true, scores: { goal: 4 } });
    expect(selectionScores(undefined)).toBeNull();
  });

  it('for parley pairs: a panel by its mean per rubric, never mixing rubrics, blind judges left out', () => {
    let ev: Evaluation | null = withJudgement(null, judgement('openai:gpt-4', SOTOPIA_RUBRIC, 7));
    ev = withJudgement(ev, judgement('mistral:large', SOTOPIA_RUBRIC, 4));
    ev = withJudgement(ev, judgement('openai:gpt-4', warmth, 2));
    ev = withJudgement(ev, judgement('openai:gpt-4o', SOTOPIA_RUBRIC, 0, 'blind'));
    expect(panelMeanScores(ev)!['a']).toMatchObject({ ok: true, scores: { goal: 5.5, believability: 5.5, warmth: 2 } });
    expect(panelMeanScores(undefined)).toBeNull();
  });
});
