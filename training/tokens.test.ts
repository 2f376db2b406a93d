import { describe, expect, it } from 'vitest';
import { ESTIMATE, tokenCounterFor } from './tokens.js';

describe('tokenCounterFor', () => {
  const messages = [{ role: 'user' as const, content: 'hello world' }, { role: 'assistant' as const, content: '{"action_type":"speak","argument":"hi"}' }];

  it("counts OpenAI models with their own encoding (cl100k for GPT-3.5, o200k for GPT-4o), others by estimate", async () => {
    const gpt35 = await tokenCounterFor('openai:gpt-3.5-turbo-0125');
    expect(gpt35.method).toBe('cl100k_base');
    // "hello world" is 2 cl100k tokens, "user" 1; + 3 per message and 3 priming.
    expect(gpt35.count([messages[0]!])).toBe(3 + 1 + 2 + 3);
    expect((await tokenCounterFor('openai:gpt-4o-mini')).method).toBe('o200k_base');
    expect((await tokenCounterFor('openai:ft:gpt-3.5-turbo-0125:org::x')).method).toBe('cl100k_base');
    expect(await tokenCounterFor('mistral:open-mistral-7b')).toBe(ESTIMATE);
    expect(ESTIMATE.count(messages)).toBeGreaterThan(10);
  });

  it('counts a special-token string in a message as text instead of refusing the message', async () => {
    const gpt35 = await tokenCounterFor('openai:gpt-3.5-turbo-0125');
    const n = gpt35.count([{ role: 'assistant', content: 'done <|endoftext|> and <|fim_prefix|>' }]);
    expect(n).toBeGreaterThan(3 + 1 + 3 + 6);
  });
});
