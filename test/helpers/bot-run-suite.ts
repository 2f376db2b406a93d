import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { CLI_GUARD_MS } from '../setup/guards.js';
import { parley, tempDir, within } from './processes.js';

/** What a test file about one finished `parley run` of built-in bots shares (see `botRunSuite`). */
export interface BotRunSuite {
  /** The scratch folder (the run directory is its `run`). */
  readonly tmp: { path: string };
  /** The run directory. */
  readonly out: string;
  /** How the run ended: its exit code and output lines (read once beforeAll has run). */
  readonly result: { code: number | null; stdout: string[]; stderr: string[] };
}

/**
 * Registers, in the calling `describe`, a scratch folder named by `prefix` and `parley run --scenarios
 * builtin …args --out DIR` run to its end in beforeAll (built-in bots: no key, no network), its output
 * kept for the tests; the folder is removed after them.
 */
export function botRunSuite(prefix: string, args: string[]): BotRunSuite {
  const tmp = tempDir(prefix);
  const out = join(tmp.path, 'run');
  let result: BotRunSuite['result'] | undefined;
  beforeAll(async () => {
    const p = parley(['run', '--scenarios', 'builtin', ...args, '--out', out]);
    try {
      const code = await within(p.exited, CLI_GUARD_MS, `parley run (${prefix})`, [p]);
      result = { code, stdout: p.stdout, stderr: p.stderr };
      if (code !== 0) console.error(p.stderr.join('\n'));
    } finally {
      p.kill();
    }
  });
  afterAll(() => tmp.remove());
  return {
    tmp,
    out,
    get result() {
      if (!result) throw new Error('the run happens in beforeAll');
      return result;
    },
  };
}
