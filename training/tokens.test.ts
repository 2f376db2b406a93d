import { describe, expect, it } from 'vitest';
import { countByPieces, ESTIMATE, tokenCounterFor } from './tokens.js';

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

  /** Deterministic (mulberry32): a failure names its case and reproduces. */
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Whitespace of every kind next to newlines, letters of every case and script, digits, punctuation that
  // takes trailing newlines, contractions, marks, astral characters, special-token strings.
  const PARTS = ['\n', '\n\n', ' \n', '\t', '\r\n', '  ', ' ', 'a', 'Z', 'word', 'Turn #3: ', 'é', 'ß', '中文', 'Ωμ', '7', '1234', '.', '."', '"', "'", "'s", "'LL", "'ve", '/', '//', '?!', '(', ')', '\u0301', 'e\u0301', '😀', '𝒜', '<|endoftext|>', '-', '*', 'DE', 'gEt', 'a\nb', '."\nT', '7\nx', ':\né', '\u0301\nQ'];
  const text = (next: () => number) => Array.from({ length: 1 + Math.floor(next() * 60) }, () => PARTS[Math.floor(next() * PARTS.length)]!).join('');

  it.each(['cl100k_base', 'o200k_base'] as const)('%s: a text counts as the sum of its pieces, on adversarial text and on a growing paper-style prompt', async (encoding) => {
    const { encode } = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
    const whole = (t: string) => encode(t, { disallowedSpecial: new Set<string>() }).length;
    const next = rng(encoding === 'cl100k_base' ? 100 : 200);
    let cut = 0;
    for (let i = 0; i < 3000; i++) {
      const t = text(next);
      if (/\S\n\p{L}/u.test(t)) cut++;
      expect(countByPieces(t, whole), JSON.stringify(t)).toBe(whole(t));
    }
    // Most texts were really cut somewhere (the sum was tested, not only the whole).
    expect(cut).toBeGreaterThan(1500);
    // Shaped as a paper prompt (a role line, a setting, a blank line, the history one turn a line); the words are ours.
    let prompt = 'You play Tobias here; reply and act the way Tobias would.\nSetting: a birthday party in a garden.\n\nWhat has been said so far:\n';
    for (let turn = 0; turn < 20; turn++) {
      prompt += `Turn #${turn}: ${turn % 2 ? 'Ines' : 'Tobias'} said: "Line ${turn}, it's ${'so '.repeat(turn)}fine."\n`;
      const asked = `${prompt}\nNow comes turn #${turn + 1}.`;
      expect(countByPieces(asked, whole)).toBe(whole(asked));
    }
  });
});
