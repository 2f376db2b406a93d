import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../disk/package-root.js';
import { escapeBeyondLatin1, LATIN1_OUTPUT_SOURCE, latin1Output } from './latin1-output.js';

describe('latin1Output as a bundle-cache plugin', () => {
  it('tracks the file that holds its code, by its path from the package root', () => {
    // A rename that left the path behind would drop the plugin's code from the cache's inputs silently.
    expect(packagePath(LATIN1_OUTPUT_SOURCE)).toBe(fileURLToPath(new URL('./latin1-output.ts', import.meta.url)));
    expect(latin1Output.reads()).toEqual([LATIN1_OUTPUT_SOURCE]);
  });
});

describe('escapeBeyondLatin1', () => {
  it('escapes what needs two bytes and leaves ASCII and Latin-1 as they are', () => {
    expect(escapeBeyondLatin1('a \u2014 b \u2192 c \u00e9 \u2026')).toBe('a \\u2014 b \\u2192 c \u00e9 \\u2026');
    expect(escapeBeyondLatin1('plain text\n')).toBe('plain text\n');
  });

  it('writes a character outside the BMP as its two surrogate escapes', () => {
    expect(escapeBeyondLatin1('\u{1F600}')).toBe('\\ud83d\\ude00');
  });

  it('leaves a script meaning what it meant: the comment is text, an escaped string is the same string', () => {
    const source = "// \u2500\u2500 a heading \u2014 kept by esbuild\n['\u2014\u00e9\u{1F600}', `\u2192`]";
    const escaped = escapeBeyondLatin1(source);
    expect(escaped).toMatch(/^[\x00-\xff]*$/);
    expect(runInNewContext(escaped)).toEqual(runInNewContext(source));
  });

  it('refuses a character beyond Latin-1 right after a backslash rather than change what it means', () => {
    expect(() => escapeBeyondLatin1("'a\\\u2014'")).toThrow(/after a backslash/);
  });
});
