import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunPaths } from '../../run-dir/index.js';
import { tempDir } from '../helpers/processes.js';
import { scriptBundle } from '../helpers/script-bundle.js';

const RACER = fileURLToPath(new URL('./lock-racer.ts', import.meta.url));
const RACERS = 6;

/** A pid that is certainly gone: a child that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

/** The racer, bundled once for the file (twelve racers under tsx each compiled it again). */
let racer: string;
const racerDir = tempDir('lock-racer');
beforeAll(async () => {
  racer = await scriptBundle(RACER, racerDir.path);
});
afterAll(() => racerDir.remove());

/** Starts a racer: `ready` once it is loaded, then `said` the word it printed after `go` (`got` or `busy`). */
function race(dir: string): { child: ChildProcess; ready: Promise<void>; said: Promise<string> } {
  const child = spawn(process.execPath, [racer, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const words: ((w: string) => void)[] = [];
  const next = () => new Promise<string>((resolve) => words.push(resolve));
  const first = next();
  const second = next();
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      words.shift()?.(out.slice(0, nl));
      out = out.slice(nl + 1);
    }
  });
  const died = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`racer exited (${code}) early`))));
  died.catch(() => {});
  return { child, ready: Promise.race([first, died]).then(() => undefined), said: Promise.race([second, died]) };
}

describe('the run directory lock under processes racing for it', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it.each([
    ['a stale lock left by a dead process', async (file: string) => writeFileSync(file, JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: '2020-01-01T00:00:00.000Z', command: 'run' }) + '\n')],
    ['no lock at all', async () => {}],
  ])(`%s: of ${RACERS} racers started together exactly one takes it`, async (_label, plant) => {
    const dir = tempDir('lock-race');
    cleanups.push(() => dir.remove());
    const paths = new RunPaths(dir.path);
    await plant(paths.lockFile);
    const racers = Array.from({ length: RACERS }, () => race(dir.path));
    cleanups.push(() => racers.forEach((r) => r.child.kill()));
    // All loaded first (tsx start-up takes a while), then released together, so they really race.
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.child.stdin!.write('go\n');
    const said = await Promise.all(racers.map((r) => r.said));
    expect(said.filter((s) => s === 'got')).toHaveLength(1);
    expect(said.filter((s) => s === 'busy')).toHaveLength(RACERS - 1);
    // The winner holds the lock until it is told to go, and leaves no temporary or takeover file.
    const winner = racers[said.indexOf('got')]!;
    expect(existsSync(paths.lockFile)).toBe(true);
    winner.child.stdin!.end();
    await once(winner.child, 'exit');
    expect(readdirSync(dir.path)).toEqual([]);
  });
});
