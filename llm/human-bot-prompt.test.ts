import { describe, expect, it } from 'vitest';
import { humanBotPrompt } from './human-bot-prompt.js';
import { splitParams } from './options.js';

describe('humanBotPrompt (SOTOPIA\'s Together completion prompt)', () => {
  it('one user message: <human>: line, then an open <bot>: ', () => {
    expect(humanBotPrompt([{ role: 'user', content: '  Hello there \n' }])).toBe('<human>: Hello there\n<bot>: ');
  });
  it('folds a system message into the first user message and tags assistants <bot>', () => {
    expect(humanBotPrompt([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Bye' },
    ])).toBe('<human>: Be brief.\nHi\n<bot>: Hello\n<human>: Bye\n<bot>: ');
  });
});

describe('params.transport', () => {
  it('completion is an openai client setting, never sent as a sampling parameter', () => {
    const { options, sampling } = splitParams('openai', { transport: 'completion', top_k: 50 });
    expect(options.transport).toBe('completion');
    expect(sampling).toEqual({ top_k: 50 });
    expect(splitParams('openai').options.transport).toBe('chat');
  });
  it('is refused for mistral and for unknown values, before anything is sent', () => {
    expect(() => splitParams('mistral', { transport: 'completion' })).toThrow(/needs an openai/);
    expect(() => splitParams('openai', { transport: 'raw' })).toThrow(/chat or completion/);
  });
});
