import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunConfig } from '../../orchestrator/run-config.js';
import { runExperiment } from '../../orchestrator/run/driver.js';
import { runQueued } from '../../queue/coordinator.js';
import { readRunJson, RunPaths } from '../../run-dir/index.js';
import { tempDir } from '../helpers/processes.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';

/**
 * Issue 22: both executors of a run (the local pool and the queue) go through one lifecycle, so a run
 * that cannot reach its seats leaves run.json exactly as it found it on either path. The local path
 * fails on a port in use; the queue path on a Redis that refuses the run's writes (a read-only replica
 * whose primary is gone: it answers at once, where an unreachable Redis is retried with backoff).
 */
describe('run.json when nothing ran: the same on the local and the queue path', () => {
  const tmp = tempDir('run-json-executors');
  let busy: Server;
  let redis: TestRedis;
  beforeAll(async () => {
    busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    redis = await startRedis();
    const admin = new Redis(redis.url);
    // The primary's port is the busy server's: not a Redis, so the replica never syncs and stays read-only.
    await admin.call('REPLICAOF', '127.0.0.1', String((busy.address() as AddressInfo).port));
    await expect(admin.set('probe', '1')).rejects.toThrow(/READONLY/);
    admin.disconnect();
  });
  afterAll(async () => {
    busy.close();
    await redis?.stop();
    tmp.remove();
  });

  const config = (name: string) => RunConfig.parse({ scenarios: 'builtin', out: join(tmp.path, name), modes: ['agents'], limit: 1, maxTurns: 4 });
  const quiet = { log: () => {} };
  const fail: Record<'local' | 'queue', (input: RunConfig) => Promise<unknown>> = {
    local: (input) => runExperiment(input, { ...quiet, hosting: 'local', port: (busy.address() as AddressInfo).port }),
    queue: (input) => runQueued(input, { ...quiet, url: redis.url, shown: redis.url, sweepMs: 50 }),
  };

  it('a recorded run (local, one episode) is the starting point', async () => {
    const result = await runExperiment(config('existing'), { ...quiet, hosting: 'local' });
    expect(result.ran).toHaveLength(1);
    const run = readRunJson(new RunPaths(result.dir));
    expect(run.ok && run.run?.endedAt).toEqual(expect.any(String));
  });

  for (const executor of ['local', 'queue'] as const) {
    it(`${executor}: an existing run gets its run.json back byte for byte`, async () => {
      const file = new RunPaths(config('existing').out).runJson;
      const before = readFileSync(file, 'utf8');
      await expect(fail[executor](config('existing'))).rejects.toThrow(executor === 'local' ? /cannot listen/ : /READONLY/);
      expect(readFileSync(file, 'utf8')).toBe(before);
    });

    it(`${executor}: a new directory keeps no run.json and no scenarios.jsonl`, async () => {
      const input = config(`new-${executor}`);
      await expect(fail[executor](input)).rejects.toThrow();
      const p = new RunPaths(input.out);
      expect(existsSync(p.runJson)).toBe(false);
      expect(existsSync(p.scenariosJsonl)).toBe(false);
    });
  }
});
