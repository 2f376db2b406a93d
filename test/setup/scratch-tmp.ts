import { accessSync, constants, lstatSync, mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** statfs's f_type of a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
/** Free space asked of the tmpfs: the full-size paper run's directory is ~200 MB, and three files run at once. */
const MIN_FREE_BYTES = 2 * 1024 ** 3;

/**
 * The temporary directory of the test processes (vitest.config.ts sets TMPDIR to it for them and for every
 * process they start): a directory of this user's on the machine's tmpfs, `/dev/shm`, when there is one
 * with room; undefined (the system's, usually /tmp) otherwise, or when TMPDIR is set already (the user's
 * choice stands).
 *
 * Why: the suite creates and removes hundreds of thousands of files (run directories: a ledger and a
 * cassette per seat, transcripts, scratch), and on a disk file system creating an inode can cost far more
 * than the write. On this project's machines (ext4 without a journal) the kernel checks each candidate
 * free inode for a recent deletion (`recently_deleted`, reading inode-table blocks), so after a burst of
 * removals each create took ~0.4 ms of system CPU: 2,700 directories and 5,400 small files took 1.2–5 s of
 * CPU on /tmp and 0.16 s on /dev/shm (perf: 60 % of the samples in recently_deleted). Nothing a test checks
 * depends on the file system being a disk; the product's run directories stay where the user puts them.
 *
 * The directory is stable (not one per run), so caches kept under TMPDIR (tsx's) stay warm between runs,
 * and it must be this user's own real directory, private, since /dev/shm is shared like /tmp. It must also
 * run programs: the tests run scripts they write there (the README test's npx shim).
 *
 * `root` is the tmpfs's mount point (tests give another).
 */
export function scratchTmpDir(env: NodeJS.ProcessEnv = process.env, root = '/dev/shm'): string | undefined {
  if (env.TMPDIR || process.platform !== 'linux' || !process.getuid) return undefined;
  try {
    const fs = statfsSync(root);
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < MIN_FREE_BYTES) return undefined;
    const dir = join(root, `parley-tests-${process.getuid()}`);
    mkdirSync(dir, { mode: 0o700, recursive: true });
    const st = lstatSync(dir);
    const ours = st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o077) === 0;
    return ours && runsPrograms(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a program in `dir` may be run: a tmpfs is often mounted `noexec` (Docker's /dev/shm is, and
 * hardening guides ask it of /dev/shm), and there every script a test writes and runs failed with EACCES
 * (found in review). access(2) refuses X_OK on such a mount.
 */
function runsPrograms(dir: string): boolean {
  const probe = join(dir, `.exec-probe-${process.pid}`);
  try {
    writeFileSync(probe, '', { mode: 0o700 });
    accessSync(probe, constants.X_OK);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
}
