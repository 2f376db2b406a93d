import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * Rewrites every character beyond Latin-1 in a bundle's output as a `\uXXXX` escape, so that V8 holds the
 * script's source one byte a character. Why: V8 keeps a script's whole source as a two-byte string if a
 * single character needs it. The agent snapshot bundle (~0.7 MB) was held at 1.37 MB in every agent
 * process's heap because of 25 dashes, arrows and ellipses in comments esbuild keeps inside object literals
 * (ours in protocol/, and zod's); the blob also shrank 7.43 -> 6.75 MB when they were escaped
 * (bench/start-up.md). Safe: esbuild's default `charset: 'ascii'` already escapes every non-ASCII character
 * in code (strings, templates, regular expressions, names), so what is left beyond Latin-1 is comment text,
 * where an escape is just text.
 */
export function escapeBeyondLatin1(text: string): string {
  // After a backslash (an identity escape in a string or a regular expression) an escape would change the
  // meaning: a backslash and a dash mean the dash, a backslash and its escape mean a backslash and text.
  // esbuild writes none outside comments; a build that has one fails rather than guess (the pool starts plain).
  const escaped = /\\[^\x00-\xff]/.exec(text);
  if (escaped) throw new Error(`a character beyond Latin-1 after a backslash at offset ${escaped.index}: not escaped safely`);
  // Each UTF-16 unit on its own: a surrogate pair becomes two escapes, as esbuild writes them in strings.
  return text.replace(/[^\x00-\xff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** This file, from the package root. */
export const LATIN1_OUTPUT_SOURCE = 'orchestrator/supervisor/latin1-output.ts';

/**
 * The esbuild plugin (`{ plugin, key, reads }` as disk/bundle-cache.js keys plugins): rewrites the written outputs.
 * No bundle imports this file, so esbuild does not list it: `reads` tracks it (the key is bumped by hand).
 */
export const latin1Output: { plugin: Plugin; key: string; reads: () => string[] } = {
  key: 'escape-beyond-latin1-v2',
  reads: () => [LATIN1_OUTPUT_SOURCE],
  plugin: {
    name: 'latin1-output',
    setup(build) {
      // esbuild has written its files by the time on-end callbacks run (write: true): rewrite them in place.
      build.onEnd((result) => {
        const cwd = build.initialOptions.absWorkingDir ?? process.cwd();
        for (const out of Object.keys(result.metafile?.outputs ?? {})) {
          if (!/\.c?js$/.test(out)) continue;
          const path = isAbsolute(out) ? out : join(cwd, out);
          const text = readFileSync(path, 'utf8');
          const escaped = escapeBeyondLatin1(text);
          if (escaped !== text) writeFileSync(path, escaped);
        }
      });
    },
  },
};
