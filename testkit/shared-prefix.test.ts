import { describe, expect, it } from 'vitest';
import { sharedPrefix } from './shared-prefix.js';

/** The plain definition, one character at a time. */
function byCharacter(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

describe('sharedPrefix', () => {
  it('is the common prefix length, at every position around the block size and for empty strings', () => {
    const base = Array.from({ length: 1200 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    for (const at of [0, 1, 2, 127, 255, 256, 257, 511, 512, 513, 767, 768, 1023, 1024, 1199]) {
      const other = `${base.slice(0, at)}#${base.slice(at + 1)}`;
      expect(sharedPrefix(base, other)).toBe(at);
      expect(sharedPrefix(other, base)).toBe(at);
    }
    expect(sharedPrefix(base, base)).toBe(1200);
    expect(sharedPrefix(base, base.slice(0, 700))).toBe(700);
    expect(sharedPrefix('', base)).toBe(0);
    expect(sharedPrefix('', '')).toBe(0);
  });

  it('agrees with the character-by-character definition on random strings (surrogates included)', () => {
    let seed = 9;
    const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const alphabet = ['a', 'b', '😀', '\ud83d', 'é', ' '];
    for (let k = 0; k < 300; k++) {
      const common = Array.from({ length: Math.floor(next() * 900) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const tail = () => Array.from({ length: Math.floor(next() * 300) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const a = common + tail();
      const b = common + tail();
      expect(sharedPrefix(a, b)).toBe(byCharacter(a, b));
    }
  });
});
