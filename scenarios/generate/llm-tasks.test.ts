import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse, LlmClient } from '../../llm/types.js';
import { checkScenario } from '../check.js';
import { builtinScenarios } from '../builtin.js';
import { BUILTIN_INSPIRATIONS } from './inspirations.js';
import { exampleFromScenario, generateWithLlm, GeneratedTask, normaliseText, parseGeneratedTask } from './llm-tasks.js';

/** A scripted client: answers in order, then repeats the last; records requests. */
function scripted(answers: Array<string | Error>): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  let i = 0;
  return {
    provider: 'openai',
    model: 'gpt-4',
    requests,
    async chat(req: ChatRequest): Promise<ChatResponse> {
      requests.push(req);
      const a = answers[Math.min(i++, answers.length - 1)]!;
      if (a instanceof Error) throw a;
      return { content: a, usage: { prompt: 1, completion: 1, cached: 0 }, model: 'gpt-4', latencyMs: 1, retries: 0 };
    },
  };
}

const task = (k: number, over: Partial<GeneratedTask> = {}) =>
  JSON.stringify({
    codename: `task_${k}`,
    scenario: `Situation number ${k}: two people share a small office and disagree about the window.`,
    agent_goals: [`Keep the window open for task ${k} <extra_info>You feel faint in stuffy rooms.</extra_info>`, `Keep the window closed for task ${k}`],
    relationship: 'acquaintance',
    judge_only: `Hidden fact ${k}.`,
    ...over,
  });

describe('LLM task generation', () => {
  it('turns valid answers into scenarios that record the generating model', async () => {
    const client = scripted([task(1), '```json\n' + task(2) + '\n```', task(3)]);
    const r = await generateWithLlm({ client, n: 3, inspirations: BUILTIN_INSPIRATIONS });
    expect(r.scenarios).toHaveLength(3);
    expect(r.rejected).toEqual([]);
    for (const s of r.scenarios) {
      expect(checkScenario(s)).toEqual([]);
      expect(s).toMatchObject({ source: 'generated:openai:gpt-4', kind: 'open', subsets: ['generated'], relationship: { level: 2 } });
      expect(s.seats[0]!.hints).toEqual([{ kind: 'extra_info', text: 'You feel faint in stuffy rooms.' }]);
      expect(s.seats[0]!.goal).not.toContain('extra_info');
      expect(s.judgeOnly).toMatch(/^Hidden fact \d\.$/);
    }
    const prompt = client.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(BUILTIN_INSPIRATIONS.some((p) => prompt.includes(p))).toBe(true);
    expect(prompt).toContain('borrowed_ladder');
    expect(client.requests[0]!.json?.name).toBe('parley_scenario');
  });

  it('retries invalid, duplicate and failed generations and never returns them', async () => {
    const client = scripted([
      'not json at all',
      task(1),
      task(1, { codename: 'other_name' }), // same scenario text: duplicate
      task(9, { relationship: 'nemesis' as never }),
      new Error('HTTP 500'),
      task(2, { agent_goals: ['Same goal for both', 'Same goal for both'] }),
      task(2),
    ]);
    const rejected: string[] = [];
    const r = await generateWithLlm({ client, n: 2, inspirations: ['x'], attemptsPerScenario: 4, onReject: (x) => rejected.push(x.reason) });
    expect(r.scenarios.map((s) => s.codename)).toEqual(['task_1', 'task_2']);
    expect(r.attempts).toBe(7);
    expect(rejected).toHaveLength(5);
    expect(rejected[0]).toMatch(/no JSON object/);
    expect(rejected[1]).toMatch(/duplicate/);
    expect(rejected[2]).toMatch(/relationship/);
    expect(rejected[3]).toMatch(/HTTP 500/);
    expect(rejected[4]).toMatch(/same/);
  });

  it('stops after a bounded number of attempts', async () => {
    const client = scripted(['{"codename": "x"}']);
    const r = await generateWithLlm({ client, n: 2, inspirations: ['x'], attemptsPerScenario: 2 });
    expect(r.scenarios).toEqual([]);
    expect(r.attempts).toBe(4);
    expect(client.requests).toHaveLength(4);
  });

  it('deduplicates on normalised text and against existing scenarios', async () => {
    expect(normaliseText('Two  friends, MEET!')).toBe(normaliseText('two friends meet'));
    const existing = (await generateWithLlm({ client: scripted([task(1)]), n: 1, inspirations: ['x'] })).scenarios;
    const r = await generateWithLlm({ client: scripted([task(1).replace('Situation', 'SITUATION'), task(2)]), n: 1, inspirations: ['x'], existing });
    expect(r.rejected[0]!.reason).toMatch(/duplicate/);
    expect(r.scenarios[0]!.codename).toBe('task_2');
  });

  it('uses an existing scenario as the example, with its hints re-tagged', () => {
    const ex = exampleFromScenario(builtinScenarios()[0]!);
    expect(GeneratedTask.safeParse(ex).success).toBe(true);
    expect(parseGeneratedTask(JSON.stringify(ex)).ok).toBe(true);
  });
});
