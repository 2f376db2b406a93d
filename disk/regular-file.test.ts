import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile } from './regular-file.js';

describe('readRegularFile (a run directory is untrusted)', () => {
  const root = mkdtempSync(join(tmpdir(), 'parley-regular-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'ledgers'));
  writeFileSync(join(root, 'ledgers', 'a.jsonl'), 'one\n');
  writeFileSync(join(root, 'outside.txt'), 'SECRET');

  it('reads a regular file under the root', () => {
    expect(readRegularFile(join(root, 'ledgers', 'a.jsonl'), 100, root)).toEqual({ ok: true, text: 'one\n' });
  });
  it('refuses a symlinked file or directory, a directory and a file over its cap', () => {
    symlinkSync(join(root, 'outside.txt'), join(root, 'ledgers', 'link.jsonl'));
    expect(readRegularFile(join(root, 'ledgers', 'link.jsonl'), 100, root)).toMatchObject({ ok: false, reason: 'not_regular', message: expect.stringMatching(/symbolic link/) });
    symlinkSync(join(root, 'ledgers'), join(root, 'dirlink'));
    expect(readRegularFile(join(root, 'dirlink', 'a.jsonl'), 100, root)).toMatchObject({ ok: false, reason: 'not_regular' });
    // (A FIFO: test/security/fork-untrusted-parent.test.ts, which may start mkfifo.)
    expect(readRegularFile(join(root, 'ledgers'), 100, root)).toMatchObject({ ok: false, reason: 'not_regular', message: expect.stringMatching(/directory/) });
    expect(readRegularFile(join(root, 'ledgers', 'a.jsonl'), 3, root)).toMatchObject({ ok: false, reason: 'too_large' });
    expect(readRegularFile(join(root, 'nope'), 3, root)).toMatchObject({ ok: false, reason: 'missing' });
  });
});
