import { spawnSync } from 'node:child_process';
import { chownSync, lstatSync, mkdirSync, readdirSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../testkit/processes.js';
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

const TMPFS_MAGIC = 0x01021994;
const onRoomyTmpfs = (path: string) => {
  const fs = statfsSync(path);
  return fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= 2 * 1024 ** 3;
};
const uid = process.getuid?.() ?? -1;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});
const root = () => {
  const t = tempDir('scratch-root');
  cleanups.push(t.remove);
  return t.path;
};

// These tests give the function a root of their own, made on the tests' temporary directory: that is a
// tmpfs with room only where the suite runs on one (the function declines anything else).
describe.skipIf(process.platform !== 'linux' || !onRoomyTmpfs(tmpdir()))("the tests' temporary directory, on a tmpfs someone else could write to (skipped off a tmpfs)", () => {
  it('makes its own private directory under the root, and uses it again', () => {
    const r = root();
    expect(scratchTmpDir({}, r)).toBe(join(r, `parley-tests-${uid}`));
    expect(scratchTmpDir({}, r)).toBe(join(r, `parley-tests-${uid}`));
    expect(readdirSync(join(r, `parley-tests-${uid}`))).toEqual([]);
  });

  it('never uses what was planted at its path: a symlink to a directory, a directory others can read, a file', () => {
    const r = root();
    const at = join(r, `parley-tests-${uid}`);
    mkdirSync(join(r, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(r, 'elsewhere'), at);
    expect(scratchTmpDir({}, r)).toBeUndefined();
    const r2 = root();
    mkdirSync(join(r2, `parley-tests-${uid}`), { mode: 0o755 });
    expect(scratchTmpDir({}, r2)).toBeUndefined();
    const r3 = root();
    writeFileSync(join(r3, `parley-tests-${uid}`), '');
    expect(scratchTmpDir({}, r3)).toBeUndefined();
  });

  it.skipIf(uid !== 0)("never uses another user's directory (run as root to make one)", () => {
    const r = root();
    mkdirSync(join(r, `parley-tests-${uid}`), { mode: 0o700 });
    chownSync(join(r, `parley-tests-${uid}`), 65534, 65534);
    expect(scratchTmpDir({}, r)).toBeUndefined();
  });
});

/** Mounts a fresh 3 GB tmpfs (nothing is used until written) with `options`; null where this user may not. */
function mountTmpfs(options: string): string | null {
  const r = root();
  const made = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=3g,mode=0700,${options}`, 'parley-test', r], { stdio: 'ignore' });
  if (made.status !== 0) return null;
  cleanups.push(() => spawnSync('umount', [r], { stdio: 'ignore' }));
  return r;
}
const canMount = process.platform === 'linux' && uid === 0 && spawnSync('mount', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!canMount)("the tests' temporary directory on a noexec tmpfs (needs root and mount; skipped otherwise)", () => {
  it('is not used where programs may not run: the tests run scripts they write to it', (ctx) => {
    const exec = mountTmpfs('exec');
    const noexec = mountTmpfs('noexec');
    if (!exec || !noexec) return ctx.skip(); // no mount permission in this container
    expect(scratchTmpDir({}, exec)).toBe(join(exec, `parley-tests-${uid}`));
    expect(scratchTmpDir({}, noexec)).toBeUndefined();
    expect(readdirSync(join(noexec, `parley-tests-${uid}`))).toEqual([]);
  });
});
