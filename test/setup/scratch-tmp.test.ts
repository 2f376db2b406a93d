import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { scratchTmpDir } from './scratch-tmp.js';

describe("the tests' temporary directory (test/setup/scratch-tmp.ts)", () => {
  it('leaves a TMPDIR the user set alone', () => {
    expect(scratchTmpDir({ TMPDIR: '/somewhere/else' })).toBeUndefined();
  });

  it('is, when on the tmpfs, a private directory of this user that the test processes use', () => {
    const dir = scratchTmpDir({});
    if (dir === undefined) return; // no tmpfs with room here: the system's temporary directory is used
    expect(dir).toMatch(/^\/dev\/shm\/parley-tests-\d+$/);
    const st = lstatSync(dir);
    expect(st.isDirectory()).toBe(true);
    expect(st.uid).toBe(process.getuid!());
    expect(st.mode & 0o077).toBe(0);
    // vitest.config.ts hands it to the test processes (a TMPDIR set before the run stands instead).
    expect(process.env.TMPDIR).toBeDefined();
    expect([dir, process.env.TMPDIR]).toContain(tmpdir());
  });
});
