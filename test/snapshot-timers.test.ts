import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_BUILD_ONLY_FLAGS } from '../orchestrator/supervisor/worker-snapshot.js';
import { REPO, tempDir } from './helpers/processes.js';

/**
 * An unrefed timer cleared while a V8 start-up snapshot is built leaves Node 20's timer list behind, and a
 * process started from that blob does not fire a later timer (agent-node/snapshot-timers.ts says why).
 * Real `node --build-snapshot` runs of a small entry that, as the rehearsed seat's close does, unrefs and clears
 * a 300 ms timer; its process, 600 ms in, arms a 50 ms timer and watches it for 2 s: without the agent build's
 * last step it never fires, with it it does, and a timer still armed at the end fails the build.
 */
describe('timers in a process started from the agent snapshot', () => {
  const tmp = tempDir('snapshot-timers');
  afterAll(() => tmp.remove());

  const probe = [
    'startupSnapshot.setDeserializeMainFunction(() => {',
    // Node's timer clock is ms since each process's own start (its loop time), and a new timer is handed to libuv
    // only if due before the wake-up time the build left (`staleAt`, in the builder's clock). A builder slowed by
    // load armed its timer seconds into its life, so a probe that armed its own 600 ms in had it handed to libuv
    // and fire even without the fix ('fired' for the bare build at load ~50). So the probe also waits until its
    // clock is past the build's wake-up time, read as Node reads it: a timer's `_idleStart`, of a timer too long
    // to move the wake-up time the build left.
    '  const staleAt = globalThis.staleAt ?? 0;',
    '  const now = () => { const t = setTimeout(() => {}, 2 ** 30); clearTimeout(t); return t._idleStart; };',
    // Past the cleared timer's due time with no timer of our own (setImmediate keeps the loop turning).
    '  const start = Date.now();',
    '  const wait = () => (Date.now() - start < 600 || now() <= staleAt + 50 ? setImmediate(wait) : late());',
    '  const late = () => {',
    '    const armed = Date.now();',
    "    setTimeout(() => { console.log('fired'); process.exit(0); }, 50);",
    "    const watch = () => (Date.now() - armed > 2000 ? (console.log('stalled'), process.exit(0)) : setImmediate(watch));",
    '    watch();',
    '  };',
    '  wait();',
    '});',
  ];

  /** Builds a blob from `steps` (then the probe) as the pool builds the agent's; starts one process from it. */
  async function run(name: string, steps: string[]) {
    const script = join(tmp.path, `${name}.cjs`);
    const blob = join(tmp.path, `${name}.blob`);
    const body = ["import { startupSnapshot } from 'node:v8';", "import { settleTimers } from './snapshot-timers.js';", ...steps, ...probe].join('\n');
    await build({
      stdin: { contents: body, resolveDir: join(REPO, 'agent-node'), loader: 'ts', sourcefile: join(tmp.path, `${name}.ts`) },
      bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'silent',
    });
    const built = spawnSync(process.execPath, [...SNAPSHOT_BUILD_ONLY_FLAGS, '--snapshot-blob', blob, '--build-snapshot', script], { encoding: 'utf8', timeout: 60_000 });
    if (built.status !== 0) return { built: false, stderr: built.stderr, out: '' };
    const ran = spawnSync(process.execPath, ['--snapshot-blob', blob], { encoding: 'utf8', timeout: 30_000 });
    expect(ran.status, ran.stderr).toBe(0);
    return { built: true, stderr: built.stderr, out: ran.stdout.trim() };
  }

  // Each notes the wake-up time it leaves, in the builder's timer clock (`staleAt`, see the probe).
  const clearedUnref = 'const t = setTimeout(() => {}, 300); globalThis.staleAt = t._idleStart + 300; t.unref(); clearTimeout(t);';
  // A plain cleared timer leaves no list, but the wake-up time it asked for stays (the turn rehearsal's case).
  const cleared = 'const t = setTimeout(() => {}, 300); globalThis.staleAt = t._idleStart + 300; clearTimeout(t);';

  it('a cleared timer (unrefed or not) stalls later timers; the settled build does not; an armed one fails the build', async () => {
    const [bare, settled, bareRef, settledRef, armed] = await Promise.all([
      run('bare', [clearedUnref, 'void settleTimers;']),
      run('settled', [clearedUnref, 'void settleTimers();']),
      run('bare-ref', [cleared, 'void settleTimers;']),
      run('settled-ref', [cleared, 'void settleTimers();']),
      run('armed', ['setTimeout(() => {}, 30_000).unref();', 'void settleTimers();']),
    ]);
    expect(bare.out).toBe('stalled');
    expect(settled.out).toBe('fired');
    expect(bareRef.out).toBe('stalled');
    expect(settledRef.out).toBe('fired');
    expect(armed.built).toBe(false);
    expect(armed.stderr).toContain('a timer is still armed when the agent snapshot is written (30000 ms)');
  });
});
