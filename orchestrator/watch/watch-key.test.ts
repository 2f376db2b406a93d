import { describe, expect, it } from 'vitest';
import { newWatchKey, watchKeyMatches } from './watch-key.js';

describe('watch key', () => {
  it('is random, URL-safe and only itself matches', () => {
    const key = newWatchKey();
    expect(key).toMatch(/^[\w-]{32}$/);
    expect(newWatchKey()).not.toBe(key);
    expect(watchKeyMatches(key, key)).toBe(true);
    for (const other of [null, undefined, '', key.slice(1), `${key}x`, key.toUpperCase() === key ? key.toLowerCase() : key.toUpperCase(), 42, { key }]) {
      expect(watchKeyMatches(key, other)).toBe(false);
    }
  });
});
