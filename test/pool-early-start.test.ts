import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { WorkerPool } from '../orchestrator/supervisor/worker-pool.js';
import { builtinScenarioSet } from '../scenarios/builtin.js';
import { generateGroupScenarios } from '../scenarios/generate/groups.js';
import { REPO, tempDir } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';

/**
 * Runs start at once (issue 27): episodes start on the first agent processes that are ready while the
 * rest of the pool is still starting, and processes start a few at a time. Real processes: a stand-in
 * entry (test/fixtures/gated-start-worker.ts) that is the real agent worker, holding its `ready` until
 * the test opens a gate.
 */
const GATED_ENTRY = join(REPO, 'test', 'fixtures', 'gated-start-worker.ts');

describe('agent processes start while the first episodes run', () => {
  const tmp = tempDir('early-start');
  const saved = { dir: process.env.GATED_START_DIR, fast: process.env.GATED_START_FAST };
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    for (const [key, value] of [['GATED_START_DIR', saved.dir], ['GATED_START_FAST', saved.fast]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  afterAll(() => tmp.remove());

  /** A fresh gate directory for the stand-in processes; `open()` lets every held process say ready. */
  function gate(name: string, fast: number) {
    const dir = join(tmp.path, name);
    mkdirSync(dir);
    process.env.GATED_START_DIR = dir;
    process.env.GATED_START_FAST = String(fast);
    return { held: () => readdirSync(dir).filter((f) => f.startsWith('held-')).length, open: () => writeFileSync(join(dir, 'open'), '') };
  }

  // The pools below give a process held at the gate (idle: no CPU) as long as the test may wait for the others.
  it('starts at most startParallelism processes at once; the next start when one is ready', async () => {
    const g = gate('bounded', 0);
    const pool = new WorkerPool({ size: 4, startParallelism: 2, workerPath: GATED_ENTRY, readyTimeoutMs: CLI_GUARD_MS });
    cleanups.push(() => pool.close());
    const started = pool.start();
    // Both starting processes are held at the gate: no third one is started meanwhile.
    await vi.waitFor(() => expect(g.held()).toBe(2), { timeout: CLI_GUARD_MS, interval: 20 });
    expect(pool.pids).toHaveLength(2);
    expect(pool.readyPids).toEqual([]);
    g.open();
    await started;
    await pool.full();
    expect(pool.readyPids).toHaveLength(4);
  });

  /**
   * A pool of `size` whose first two processes are held at the gate: no other process starts while they are
   * held (the pool's rule under test), and all `size` are ready once the gate opens.
   */
  async function onlyTwoUntilReady(name: string, opts: { size: number; startParallelism: number; firstWave?: number; needed?: number }) {
    const g = gate(name, 0);
    const pool = new WorkerPool({ ...opts, workerPath: GATED_ENTRY, readyTimeoutMs: CLI_GUARD_MS });
    cleanups.push(() => pool.close());
    const started = pool.start();
    await vi.waitFor(() => expect(g.held()).toBe(2), { timeout: CLI_GUARD_MS, interval: 20 });
    expect(pool.pids).toHaveLength(2);
    g.open();
    await started;
    await pool.full();
    expect(pool.readyPids).toHaveLength(opts.size);
  }

  it('starts the first wave (one episode\'s seats) alone, then the rest startParallelism at a time', async () => {
    // The two of the first wave are held at the gate: nothing else starts while they take the cores.
    await onlyTwoUntilReady('first-wave', { size: 6, startParallelism: 4, firstWave: 2 });
  });

  it('starts the spares only once the processes the seats in flight need are ready', async () => {
    // Room to start three at once, but the spare would take CPU from the two that lanes wait for.
    await onlyTwoUntilReady('spares', { size: 3, needed: 2, startParallelism: 4 });
  });

  it('still fails start() when processes keep failing to start (a broken entry), without starting the whole pool', async () => {
    const broken = join(tmp.path, 'broken-entry.mjs');
    writeFileSync(broken, 'process.exit(3);\n');
    const pool = new WorkerPool({ size: 20, startParallelism: 2, workerPath: broken });
    cleanups.push(() => pool.close());
    await expect(pool.start()).rejects.toThrow(/keep failing to start .*code 3/);
    // At most the processes already starting when the last failure came are left (then closed), never the twenty.
    expect(pool.pids.length).toBeLessThanOrEqual(2);
  });

  it('the first episode plays its first move before the last process of the pool is ready', async () => {
    // Two processes (one episode's seats) skip the gate; every other one waits until the first move.
    // The 20 two-seat builtin episodes, then a three-seat one: two processes cannot host it (never two seats of
    // one episode in one process), so the run must wait for a third. Without it the two fast processes could
    // play every episode while the others started (a fresh clone's suite, load ~3: nine bot episodes in 1.9 s,
    // mostReady 2), a race more work only narrowed.
    const scenarios = join(tmp.path, 'two-then-three-seats.jsonl');
    const [threeSeats] = generateGroupScenarios(1);
    writeFileSync(scenarios, [...builtinScenarioSet(1), threeSeats!].map((sc) => JSON.stringify(sc)).join('\n') + '\n');
    const g = gate('run', 2);
    let pool: WorkerPool | undefined;
    let atFirstMove: { ready: number; live: number } | undefined;
    let mostReady = 0;
    const config = RunConfig.parse({ scenarios, modes: ['agents'], out: join(tmp.path, 'run-out'), concurrency: 3, maxTurns: 20 });
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' }, {
      workerEntry: GATED_ENTRY,
      progressIntervalMs: 3_600_000,
      // Bots: the pool would otherwise start past the first episode's processes only as seats wait (demand-growth.ts).
      eagerPool: true,
      poolStarted: (p) => (pool = p),
      engine: {
        moveAccepted: () => {
          if (!pool) return;
          mostReady = Math.max(mostReady, pool.readyPids.length);
          if (atFirstMove) return;
          atFirstMove = { ready: pool.readyPids.length, live: pool.pids.length };
          g.open();
        },
      },
    });
    // Had the run waited for the whole pool, no move would ever have been made (the gate opens on the first).
    expect(atFirstMove).toBeDefined();
    expect(atFirstMove!.ready).toBeLessThan(atFirstMove!.live);
    expect(atFirstMove!.ready).toBe(2);
    expect(result.ran).toHaveLength(21);
    expect(result.ran.filter((r) => r.seats.length === 3)).toHaveLength(1);
    expect(result.ran.every((r) => r.status === 'ok')).toBe(true);
    // DESIGN invariant 1 still holds: two seats of one episode never share a process.
    for (const r of result.ran) expect(new Set(r.seats.map((s) => s.pid)).size).toBe(r.seats.length);
    // The processes held at the gate became ready while episodes were playing, and took seats.
    expect(mostReady).toBeGreaterThan(2);
    const used = new Set(result.ran.flatMap((r) => r.seats.map((s) => s.pid)));
    expect(used.size).toBeGreaterThan(2);
  });
});
