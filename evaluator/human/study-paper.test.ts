import { describe, expect, it } from 'vitest';
import { PAPER_NATURALNESS_QUESTION } from '../compare/naturalness.js';
import { episode, openScenario } from '../testing/fixtures.js';
import type { RunDir } from '../run-dir.js';
import { Study } from './study.js';

const run = (dir: string, mode: 'script' | 'agents'): RunDir => {
  const s = openScenario();
  const record = episode({ scenario: s, mode, runId: dir, moves: [['a', 'speak', 'Fay, I am moving.']] });
  return { dir, run: null, scenarios: new Map([[s.id, s]]), episodes: [{ record, raw: {}, line: 1 }], tornBytes: 0 };
};

describe('the annotation page under the paper view (appendix E)', () => {
  it("shows appendix E's question, SOTOPIA's rendering of the backgrounds and goals (hints inline) and no judge-only text", () => {
    const study = new Study(run('/runs/script', 'script'), 'script', run('/runs/agents', 'agents'), 'agents', '/nonexistent/ann.jsonl', { salt: '0'.repeat(64), tokens: {} });
    study.view = 'paper';
    const item = study.next('ann').item!;
    expect(item.question).toBe(PAPER_NATURALNESS_QUESTION);
    expect(item.setting).toBe('Two friends share a meal.');
    expect(JSON.stringify(item)).not.toContain('Judge note');
    expect(item.characters.map((c) => c.name)).toEqual(['Eve', 'Fay']);
    expect(item.characters[0]!.background).toContain("Eve's secrets: Eve has a secret");
    // The goal as the judge and the LLM naturalness question render it: the hint inline, unlabelled.
    expect(item.characters[0]!.goal).toBe('Tell Fay you are moving Be gentle.');
    expect([item.first, item.second].join('\n')).toContain('Eve said: "Fay, I am moving."');
  });
});
