import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../orchestrator/supervisor/worker-pool.js';
import { REPO } from './helpers/processes.js';

/**
 * A starting agent process is given up on when it is hung, not when it is slow (orchestrator/supervisor/
 * start-watch.ts). Real processes: a stand-in entry (test/fixtures/slow-start-worker.mjs) that uses a set
 * amount of CPU before it says ready, or never says it and idles.
 */
const SLOW_ENTRY = join(REPO, 'test', 'fixtures', 'slow-start-worker.mjs');

describe('a starting agent process is killed when hung, waited for when slow', () => {
  const pools: WorkerPool[] = [];
  afterEach(async () => {
    for (const p of pools.splice(0)) await p.close();
  });
  const pool = (cpu: string, readyTimeoutMs: number) => {
    const p = new WorkerPool({ size: 1, workerPath: SLOW_ENTRY, readyTimeoutMs, readyCpuMs: 20_000, env: { ...process.env, SLOW_START_CPU_MS: cpu } });
    pools.push(p);
    return p;
  };

  it('a process that needs more time than the window, and keeps using CPU, is ready (was killed at the window)', async () => {
    const p = pool('400', 150);
    await p.start();
    expect(p.readyPids).toHaveLength(1);
  });

  it('a process that uses no CPU for a whole window is killed, and the pool fails saying why', async () => {
    const p = pool('hang', 300);
    await expect(p.start()).rejects.toThrow(/agent processes keep failing to start \(agent process \d+ not ready within \d+ ms, no CPU used in the last 300 ms\)/);
  });
});
