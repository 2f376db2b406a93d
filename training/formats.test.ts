import { describe, expect, it } from 'vitest';
import type { TrainingExample } from './examples.js';
import { exampleLine, validateExamples } from './formats.js';
import { ESTIMATE } from './tokens.js';

const example = (turn: number, messages: TrainingExample['messages']): TrainingExample => ({
  runDir: 'runs/r', episodeId: 'ep-1', scenarioId: 's-1', mode: 'agents', seat: 'agent1', turn, model: null, messages,
});
const good = (turn: number) => example(turn, [
  { role: 'system', content: 'You play Ana.' },
  { role: 'user', content: 'Turn #0' },
  { role: 'assistant', content: '{"action_type":"speak","argument":"hi"}' },
]);

describe('chat fine-tuning formats', () => {
  it('writes only the messages, as both providers take them', () => {
    expect(JSON.parse(exampleLine(good(0)))).toEqual({ messages: good(0).messages });
  });

  it('names the offending example (file line, episode, seat, turn) for each broken rule', () => {
    const examples = [...Array.from({ length: 10 }, (_, i) => good(i * 2)), example(40, [{ role: 'user', content: 'hi' }]), example(42, [{ role: 'user', content: ' ' }, { role: 'assistant', content: 'x' }])];
    const issues = validateExamples('openai-chat', examples);
    expect(issues).toEqual([
      { line: 11, example: 'episode ep-1 seat agent1 turn 40', message: 'no assistant message to learn from', severity: 'error' },
      { line: 12, example: 'episode ep-1 seat agent1 turn 42', message: 'message 0 (user): empty content', severity: 'error' },
    ]);
  });

  it('mistral-chat: the last message must be the assistant\'s, after a user message', () => {
    const ex = example(3, [{ role: 'system', content: 's' }, { role: 'assistant', content: 'a' }, { role: 'system', content: 's2' }]);
    const messages = validateExamples('mistral-chat', [ex]).map((i) => i.message);
    expect(messages).toEqual(["the last message is 'system', not 'assistant'", 'no user message before the first assistant message']);
    expect(validateExamples('openai-chat', [ex]).filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('refuses an example over the token limit, and warns (only) about a training file too small to submit', () => {
    const long = example(1, [{ role: 'user', content: 'x'.repeat(80_000) }, { role: 'assistant', content: 'y' }]);
    expect(ESTIMATE.count(long.messages)).toBeGreaterThan(16_385);
    const issues = validateExamples('openai-chat', [long]);
    expect(issues.map((i) => [i.line, i.severity])).toEqual([[1, 'error'], [0, 'warning']]);
    expect(issues[0]!.message).toMatch(/over the 16385-token limit/);
    expect(issues[1]!.message).toBe('1 examples; openai-chat fine-tuning needs at least 10 in a training file');
  });
});
