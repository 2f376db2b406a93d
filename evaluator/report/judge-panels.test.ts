import { describe, expect, it } from 'vitest';
import { withJudgement, type EpisodeJudgement, type Evaluation } from '../evaluation.js';
import { GOAL_RUBRIC, SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import { rubricRef, type Rubric } from '../rubric/rubric.js';
import type { RunDir } from '../run-dir.js';
import { krippendorffInterval } from '../stats/krippendorff.js';
import { episode, openScenario } from '../testing/fixtures.js';
import { judgePanelLines, judgePanelsMarkdown } from './judge-panels-markdown.js';
import { judgePanels } from './judge-panels.js';

const open = openScenario();

/** A judgement by `spec` on `rubric`, each seat scored `score(dim, seat)`. */
function judgement(spec: string, rubric: Rubric, score: (dim: string, seat: string) => number): EpisodeJudgement {
  const seats = Object.fromEntries(['a', 'b'].map((seat) => [seat, { ok: true as const, scores: Object.fromEntries(rubric.dimensions.map((d) => [d.name, { reasoning: 'r', score: score(d.name, seat) }])) }]));
  return {
    judge: { spec, provider: 'openai', model: spec.split(':')[1]!, visibility: 'full', temperature: 0, promptVersion: 'parley-judge-3', view: 'parley', rubric: rubricRef(rubric) },
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats,
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  };
}

/** Three episodes; gpt-4 gives goal 2i+seat, gpt-4o one point more on seat b; a goal-rubric judge disagrees wildly. */
function run(): RunDir {
  const episodes = [0, 1, 2].map((i) => {
    const models: [string, string] = i === 0 ? ['openai:gpt-4o', 'bot:b'] : ['bot:a', 'bot:b'];
    let ev: Evaluation | null = null;
    ev = withJudgement(ev, judgement('openai:gpt-4', SOTOPIA_RUBRIC, (d, s) => (d === 'goal' ? 2 * i + (s === 'a' ? 0 : 1) : 0)));
    ev = withJudgement(ev, judgement('openai:gpt-4o', SOTOPIA_RUBRIC, (d, s) => (d === 'goal' ? 2 * i + (s === 'a' ? 0 : 2) : 0)));
    ev = withJudgement(ev, judgement('openai:gpt-3.5-turbo', GOAL_RUBRIC, () => 10));
    const record = episode({ scenario: open, repeat: i, models, evaluation: ev });
    return { record, raw: record as unknown as Record<string, unknown>, line: i + 1 };
  });
  return { dir: '/tmp/run-panel', run: null, scenarios: new Map([[open.id, open]]), episodes, tornBytes: 0 };
}

describe('judge panels', () => {
  const panels = judgePanels([run()], 3);

  it('keep each rubric apart: SOTOPIA-EVAL with its two judges, the goal rubric with its one', () => {
    expect(panels.map((p) => [p.rubric.name, p.judges.map((j) => j.info.spec)])).toEqual([
      ['sotopia', ['openai:gpt-4', 'openai:gpt-4o']],
      ['goal', ['openai:gpt-3.5-turbo']],
    ]);
    // The goal rubric's 10s never enter SOTOPIA-EVAL's goal means.
    expect(panels[0]!.judges.map((j) => j.means['goal'])).toEqual([(0 + 1 + 2 + 3 + 4 + 5) / 6, (0 + 2 + 2 + 4 + 4 + 6) / 6]);
    expect(panels[0]!.panelMeans['goal']).toBeCloseTo((15 / 6 + 18 / 6) / 2, 12);
  });

  it("gives per-dimension alpha on seats (units) as the alpha module computes it, and the mean absolute difference", () => {
    const goal = panels[0]!.agreement.find((a) => a.dimension === 'goal')!;
    const units = [[0, 0], [1, 2], [2, 2], [3, 4], [4, 4], [5, 6]];
    expect(goal.alpha.alpha).toBeCloseTo(krippendorffInterval(units).alpha!, 12);
    expect(goal.alpha.units).toBe(6);
    expect(goal.mad).toBeCloseTo(0.5, 12);
    expect(goal.alpha.lo).not.toBeNull();
    // Both judges gave 0 everywhere: no variation, alpha undefined (never a made-up 1 or 0).
    expect(panels[0]!.agreement.find((a) => a.dimension === 'secret')!.alpha.alpha).toBeNull();
    expect(panels[1]!.agreement).toEqual([]);
  });

  it('flags a judge scoring dialogue its own model generated', () => {
    const gpt4o = panels[0]!.judges.find((j) => j.info.spec === 'openai:gpt-4o')!;
    expect([gpt4o.selfEvaluated, gpt4o.episodes]).toEqual([1, 3]);
    expect(panels[0]!.judges.find((j) => j.info.spec === 'openai:gpt-4')!.selfEvaluated).toBe(0);
    const md = judgePanelsMarkdown(panels).join('\n');
    expect(md).toContain('**yes: 1 of 3 episodes**');
    expect(judgePanelLines(panels)).toContain('  self-evaluation: openai:gpt-4o scored 1 of 3 episodes its own model generated');
  });

  it('prints alpha per dimension and escapes a rubric name and labels in the Markdown', () => {
    const lines = judgePanelLines(panels);
    expect(lines[0]).toBe('judges on rubric sotopia (full, parley view): openai:gpt-4, openai:gpt-4o');
    expect(lines.filter((l) => /^ {2}\w+: Krippendorff's alpha /.test(l))).toHaveLength(7);
    const hostile = { ...panels[0]!, rubric: { ...panels[0]!.rubric, name: 'x](javascript:1)', dimensions: [{ name: 'goal', label: '<b>|G', min: 0, max: 10 }] } };
    const md = judgePanelsMarkdown([hostile]).join('\n');
    expect(md).toContain('Rubric x\\](javascript:1)');
    expect(md).toContain('\\<b\\>\\|G');
  });
});
