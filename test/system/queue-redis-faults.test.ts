import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EpisodeRecord } from '../../protocol/index.js';
import { parley, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';

/** Starts redis-server again on `port` (persistence off, as the shared helper does), resolving once it is ready. */
async function restartRedisOn(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', () => reject(new Error(`redis-server did not restart on ${port}:\n${out}`)));
  });
  child.stdout!.resume();
  return child;
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Issue 19, Contract 6: the queue under Redis faults, against real `parley worker` / `parley run --queue`
 * processes and a real redis-server that the test stops and starts again.
 */
describe('the queue when Redis goes away (real Redis, real workers)', () => {
  const tmp = tempDir('queue-faults');
  const procs: CliProcess[] = [];
  const servers: Array<TestRedis | ChildProcess> = [];
  // Agent processes at normal priority: on a loaded test machine niced ones may not start in time.
  const env = { ...process.env, PARLEY_QUEUE_LOCK_MS: '10000', PARLEY_WORKER_NICE: '0' };
  // Killed workers' agent processes may hold the output pipes a little longer on a loaded machine.
  afterAll(async () => {
    for (const p of procs) p.kill();
    await Promise.all(procs.map((p) => p.exited));
    for (const s of servers) {
      if ('stop' in s) await s.stop();
      else if (s.exitCode === null && s.signalCode === null) {
        s.kill('SIGTERM');
        await once(s, 'exit');
      }
    }
    tmp.remove();
  }, 120_000);

  it('a worker gets SIGTERM 2 s after its Redis was stopped and exits within 10 s', async () => {
    const redis = await startRedis();
    servers.push(redis);
    // One episode at a time: this worker only waits for Redis and its signal (no need for 14 agent processes).
    const worker = parley(['worker', '--queue', redis.url, '--concurrency', '1'], { env });
    procs.push(worker);
    await within(worker.line(/^parley worker \d+ on /), 30_000, 'worker up', [worker]);
    await redis.stop();
    // The contract's timing: the signal comes 2 s after Redis went away (the worker is reconnecting by then).
    await delay(2_000);
    const sent = Date.now();
    worker.child.kill('SIGTERM');
    await within(worker.exited, 15_000, 'worker exit after SIGTERM', [worker]);
    const took = Date.now() - sent;
    console.log(`worker exited ${took} ms after SIGTERM with Redis down`);
    expect(took).toBeLessThan(10_000);
    // The outage is said once, not once per reconnect attempt.
    expect(worker.stdout.filter((l) => /Redis at .* is unreachable/.test(l)).length).toBeLessThanOrEqual(1);
  }, 60_000);

  it('a queued run whose Redis is stopped for 5 s and started again records every episode exactly once', async () => {
    const redis = await startRedis();
    servers.push(redis);
    const out = join(tmp.path, 'run');
    const file = join(out, 'episodes.jsonl');
    const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);
    // Multiplexed (2 agent processes a worker instead of 6): what is tested is the queue across a Redis outage,
    // not one seat per process (test/system/queue.test.ts runs the default workers and checks their pids).
    const WORKER = ['worker', '--queue', redis.url, '--concurrency', '2', '--multiplex'];
    const workers = [parley(WORKER, { env }), parley(WORKER, { env })];
    procs.push(...workers);
    // 20 scenarios × agents, mindreaders: 40 episodes of bots. The contract asks for a run across an outage, of
    // any size: the outage is 10 records in, with 30 still to run, and a worker holds two jobs at a time, so most
    // of the run is taken from the queue and handed back through the restarted Redis either way (80 took twice
    // the episodes' CPU for the same check).
    const TOTAL = 40;
    const coordinator = parley(['run', '--queue', redis.url, '--scenarios', 'builtin', '--modes', 'agents,mindreaders', '--out', out], { env });
    procs.push(coordinator);
    const all = [coordinator, ...workers];
    await within(vi.waitFor(() => expect(lines().length).toBeGreaterThanOrEqual(10), { timeout: 300_000, interval: 20 }), 240_000, 'first records', all);
    const before = lines().length;

    await redis.stop();
    await delay(5_000);
    servers.push(await restartRedisOn(redis.port));

    const code = await within(coordinator.exited, 300_000, 'coordinator after the Redis restart', all);
    expect(code, [...coordinator.stdout, ...coordinator.stderr].join('\n')).toBe(0);
    const records = lines().map((l) => EpisodeRecord.parse(JSON.parse(l)));
    console.log(`records before the outage: ${before}; after: ${records.length}`);
    expect(before).toBeLessThan(TOTAL);
    expect(records).toHaveLength(TOTAL);
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(TOTAL);
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    // Each process says that Redis is back: the coordinator before it exits; a worker when a job of its
    // completes through Redis, or once its clients stayed connected for the settle time.
    for (const w of workers) await within(w.line(/Redis at .* is back/), 30_000, 'worker says Redis is back', all);
    // Each process said the outage once and that Redis was back once.
    for (const p of all) {
      const said = [...p.stdout, ...p.stderr];
      expect(said.filter((l) => /Redis at .* is unreachable/.test(l)).length, said.join('\n')).toBe(1);
      expect(said.filter((l) => /Redis at .* is back/.test(l)).length, said.join('\n')).toBeGreaterThanOrEqual(1);
    }
  }, 600_000);
});
