import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../testkit/processes.js';
import { parleyInProcess } from './helpers/in-process-parley.js';

const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** test/helpers/in-process-parley.ts: the CLI's dispatcher (from its bundle, as `npx parley` runs it) through testkit/in-process-cli.ts. */
describe('parleyInProcess: the CLI in the calling process', () => {
  it('runs the CLI: --version prints one line and exits 0; an unknown command one line on stderr and exit 2', async () => {
    expect(await parleyInProcess(['--version'])).toEqual({ code: 0, stdout: [`parley ${version}`], stderr: [] });
    const unknown = await parleyInProcess(['frobnicate']);
    expect(unknown).toEqual({ code: 2, stdout: [], stderr: ["parley: unknown command 'frobnicate' (see parley --help)"] });
  });

  it("a command's failure is its one line and exit code (a refused environment switch: exit 2, before anything runs)", async () => {
    const r = await parleyInProcess(['show', '/nonexistent'], { env: { ...process.env, PARLEY_WORKER_NICE: 'loud' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toHaveLength(1);
    expect(r.stderr[0]).toMatch(/^parley show: .*PARLEY_WORKER_NICE/);
  });
});

describe('parleyInProcess: refusals and working directory through the real dispatcher', () => {
  it('refuses serve and --queue before loading anything', async () => {
    await expect(parleyInProcess(['serve', '--port', '0'])).rejects.toThrow(/^in-process parley: 'parley serve'/);
    await expect(parleyInProcess(['run', '--queue', 'redis://127.0.0.1:1'])).rejects.toThrow(/'--queue' hands the run/);
  });

  it('runs in the given working directory (a relative --out lands there) and comes back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-inproc-cwd-'));
    const before = process.cwd();
    try {
      const r = await parleyInProcess(['scenarios', 'make', 'craigslist', '--n', '1', '--out', 'S.jsonl'], { cwd: dir });
      expect(r.code, r.stderr.join('\n')).toBe(0);
      expect(readFileSync(join(dir, 'S.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
      expect(process.cwd()).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
