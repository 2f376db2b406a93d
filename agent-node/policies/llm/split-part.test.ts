import { describe, expect, it } from 'vitest';
import { fillPart, fillSplit, splitPart, type Template } from './templates.js';

const PER_TURN = new Set(['history', 'turn']);

/** A small deterministic generator (the cases are the same every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const pick = <T,>(r: () => number, from: readonly T[]): T => from[Math.floor(r() * from.length)]!;
/** Text made of what the tidying rules look at: blanks, tabs, line breaks, other white space, words. */
const ATOMS = [' ', '  ', '\t', '\n', '\n\n', '\n\n\n', 'a', 'word', '.', '\u00a0', '\u2028', '\r', '#', '{x}', 'x\ny', 'x \n\ty'];
const text = (r: () => number, n: number) => Array.from({ length: n }, () => pick(r, ATOMS)).join('');

describe('a part split at a safe line break (templates.ts splitPart, fillSplit)', () => {
  it('fills every turn exactly as the whole part is filled, for random texts and values', () => {
    const r = random(44);
    let split = 0;
    for (let i = 0; i < 3000; i++) {
      const slots = ['{{name}}', '{{ scenario }}', '{{history}}', '{{turn}}'];
      const parts: string[] = [];
      for (let k = 0; k < 2 + Math.floor(r() * 8); k++) parts.push(text(r, 1 + Math.floor(r() * 12)), r() < 0.4 ? pick(r, slots) : '');
      const part: Template['parts'][number] = { role: 'user', text: parts.join('') };
      const steady = { name: text(r, Math.floor(r() * 6)), scenario: r() < 0.2 ? '' : text(r, Math.floor(r() * 10)) };
      const cut = splitPart(part, PER_TURN, steady);
      if (!cut) continue;
      split++;
      for (let turn = 0; turn < 3; turn++) {
        const values = { ...steady, history: r() < 0.2 ? '' : text(r, Math.floor(r() * 10)), turn };
        expect(fillSplit(cut, values), JSON.stringify({ part: part.text, values })).toEqual(fillPart(part, values));
      }
    }
    // Most random parts have a safe line break before their first per-turn placeholder: the cases ran.
    expect(split).toBeGreaterThan(500);
  });

  it('does not split a part without a per-turn placeholder, or without a line break between two visible characters', () => {
    expect(splitPart({ role: 'user', text: 'a\nb {{name}}\nc' }, PER_TURN, { name: 'n' })).toBeNull();
    expect(splitPart({ role: 'user', text: 'a \nb\n\nc\n {{history}}' }, PER_TURN, {})).toBeNull();
    expect(splitPart({ role: 'user', text: 'a\nb {{history}}' }, PER_TURN, {})).toMatchObject({ head: 'a\n', middle: 'b ', rest: '{{history}}' });
  });
});
