/**
 * One racer of `lock-race.test.ts`: prints `ready`, waits for a line on stdin (all racers get it at
 * once), tries once (no waiting) to take the run directory lock at argv[2], prints `got` or `busy`, and,
 * holding it, stays alive until its stdin closes.
 */
import { once } from 'node:events';
import { acquireRunLock, RunDirBusyError, RunPaths } from '../../run-dir/index.js';

const dir = process.argv[2]!;
process.stdout.write('ready\n');
await once(process.stdin, 'data');
try {
  const lock = await acquireRunLock(new RunPaths(dir), { command: 'eval', waitMs: 0 });
  process.stdout.write('got\n');
  process.stdin.on('end', () => {
    lock.release();
    process.exit(0);
  });
} catch (err) {
  if (!(err instanceof RunDirBusyError)) throw err;
  process.stdout.write('busy\n');
  process.exit(0);
}
