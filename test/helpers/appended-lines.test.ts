import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { appendedLineCounter } from './appended-lines.js';
import { tempDir } from './processes.js';

const tmp = tempDir('appended-lines');
afterAll(() => tmp.remove());

it('counts complete lines as a file grows, and again from the start when it is replaced or cut', () => {
  const file = join(tmp.path, 'episodes.jsonl');
  const lines = appendedLineCounter(file);
  expect(lines()).toBe(0); // not there yet
  writeFileSync(file, 'a\nb\n');
  expect(lines()).toBe(2);
  appendFileSync(file, 'c\nd'); // a line still being written is not counted
  expect(lines()).toBe(3);
  appendFileSync(file, 'x'.repeat(3 << 20) + '\ne\n'); // more than one read's worth
  expect(lines()).toBe(5);
  writeFileSync(join(tmp.path, 'next'), '1\n');
  renameSync(join(tmp.path, 'next'), file); // an atomic rewrite: a new inode
  expect(lines()).toBe(1);
  writeFileSync(file, ''); // cut shorter in place
  expect(lines()).toBe(0);
  lines.close();
});
