import { describe, expect, it } from 'vitest';
import { fileProblem } from './fake-llm-finetune-files.js';

const pair = (i: number, rejected = `no ${i}`) =>
  JSON.stringify({ input: { messages: [{ role: 'system', content: 'You play Ana.' }, { role: 'user', content: `Turn #${i}` }] }, preferred_output: [{ role: 'assistant', content: `yes ${i}` }], non_preferred_output: [{ role: 'assistant', content: rejected }] });
const file = (lines: string[]) => lines.join('\n') + '\n';
const ten = Array.from({ length: 10 }, (_, i) => pair(i));

describe("the fake fine-tuning endpoint's file check (OpenAI's rules)", () => {
  it('takes 10 preference pairs as dpo, refuses them as supervised', () => {
    expect(fileProblem(file(ten), 'dpo', 10)).toBeNull();
    expect(fileProblem(file(ten), 'supervised', 10)).toMatch(/^line 1: messages must be a list/);
  });

  it('refuses a pair with one output twice, the same outputs, an empty input, or too few examples, naming the line', () => {
    const twice = JSON.stringify({ ...JSON.parse(pair(3)), preferred_output: [{ role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }] });
    expect(fileProblem(file([...ten.slice(0, 3), twice, ...ten.slice(3)]), 'dpo', 10)).toBe('line 4: preferred_output must hold exactly one message');
    expect(fileProblem(file([pair(0, 'yes 0'), ...ten]), 'dpo', 10)).toBe('line 1: preferred_output and non_preferred_output are the same');
    expect(fileProblem(file([JSON.stringify({ ...JSON.parse(pair(0)), input: { messages: [] } }), ...ten]), 'dpo', 10)).toBe('line 1: input.messages must be a non-empty list');
    expect(fileProblem(file(ten.slice(0, 9)), 'dpo', 10)).toBe('9 examples; a training file needs at least 10');
  });
});
