import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { poolSizeFor } from '../orchestrator/supervisor/pool-size.js';
import { WorkerPool } from '../orchestrator/supervisor/worker-pool.js';
import { liveEpisode } from './helpers/live-episode.js';
import { tempDir, within } from './helpers/processes.js';

/** Real agent-node processes (forked workers) over real sockets on port 0. */
describe('multi-process episodes', () => {
  const tmp = tempDir('multiproc');
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  afterAll(() => tmp.remove());

  /** A live episode in this process, closed after the test. */
  const openEpisode = async (o?: Parameters<typeof liveEpisode>[0]) => {
    const live = await liveEpisode(o);
    cleanups.push(() => live.close());
    return live;
  };
  /** A started pool of agent processes, closed after the test (before the episodes it served). */
  const startedPool = async (o: ConstructorParameters<typeof WorkerPool>[0]) => {
    const pool = new WorkerPool(o);
    cleanups.push(() => pool.close());
    await pool.start();
    return pool;
  };
  /** Hosts `seat` of `live` (known to the pool as episode `episodeId`) as a built-in bot. */
  const hostBot = (pool: WorkerPool, episodeId: string, live: Awaited<ReturnType<typeof liveEpisode>>, seat: string) => pool.host({ episodeId, url: live.url, token: live.token(seat), policy: { spec: 'bot', params: {} } });

  it('runs concurrent episodes on a reused pool: one process per seat, different per episode seat, never the orchestrator', async () => {
    const logs: string[] = [];
    const config = RunConfig.parse({ scenarios: 'builtin', modes: ['agents', 'mindreaders', 'script'], out: join(tmp.path, 'pool-run'), concurrency: 2, limit: 9 });
    const result = await runExperiment(config, { log: (l) => logs.push(l), hosting: 'local' });
    expect(result.ran).toHaveLength(9);
    expect(result.ran.every((r) => r.status === 'ok')).toBe(true);
    const allPids = new Set<number>();
    for (const r of result.ran) {
      const pids = r.mode === 'script' ? [r.scriptWriter!.pid!] : r.seats.map((s) => s.pid!);
      expect(new Set(pids).size).toBe(pids.length);
      expect(pids).not.toContain(process.pid);
      expect(r.errors.filter((e) => e.code === 'seat/pid_mismatch')).toEqual([]);
      pids.forEach((p) => allPids.add(p));
    }
    // 2 episodes in flight × 2 seats (+ spare seats for one more episode) = 6 processes, reused across the 9 episodes.
    expect(allPids.size).toBeLessThanOrEqual(poolSizeFor(2, 2, 1));
    expect(poolSizeFor(2, 2, 1)).toBe(6);
    expect(logs.filter((l) => /^\[\s*\d+\/9\] ok/.test(l))).toHaveLength(9);
  });

  it('never puts two seats of one episode in one process, even when a process may host several seats', async () => {
    const live = await openEpisode();
    const pool = await startedPool({ size: 1, seatsPerWorker: 4 });
    const [only] = pool.pids;
    const a = await hostBot(pool, 'live-1', live, 'A');
    const b = await hostBot(pool, 'live-1', live, 'B');
    expect(a.pid).toBe(only);
    expect(b.pid).not.toBe(a.pid);
    const record = await live.episode.run({ hostPids: new Map([['A', a.pid], ['B', b.pid]]) });
    expect(record.status).toBe('ok');
    expect(record.seats.map((s) => s.pid)).toEqual([a.pid, b.pid]);
    expect(await a.released).toEqual({ ok: true });
    expect(await b.released).toEqual({ ok: true });
  });

  it('replaces a worker that died and reports the seat it held as released with an error', async () => {
    const live = await openEpisode({ turnDeadlineMs: 60_000 });
    const pool = await startedPool({ size: 1 });
    const [first] = pool.pids;
    process.kill(first!, 'SIGKILL');
    // The pool drops it at its exit event: a loaded machine can deliver that after the default 1 s.
    await vi.waitFor(() => expect(pool.pids).not.toContain(first), { timeout: 10_000 });
    // The next seat goes to a fresh process.
    const a = await hostBot(pool, 'live-1', live, 'A');
    expect(a.pid).not.toBe(first);
    await live.episode.links.get('A')!.joined;
    process.kill(a.pid, 'SIGKILL');
    expect(await a.released).toMatchObject({ ok: false, error: expect.stringContaining('exited') });
  });
  it("a seat not released after its episode is dropped alone: a worker that also hosts another episode's seat is not killed", async () => {
    const x = await openEpisode();
    const y = await openEpisode();
    const pool = await startedPool({ size: 1, seatsPerWorker: 2 });
    const [shared] = pool.pids;
    // Seat A of two different episodes on the one worker (the pool keys episodes by the id it is given).
    const stuck = await hostBot(pool, 'x', x, 'A');
    const innocent = await hostBot(pool, 'y', y, 'A');
    expect([stuck.pid, innocent.pid]).toEqual([shared, shared]);
    await x.episode.links.get('A')!.joined;
    await y.episode.links.get('A')!.joined;
    pool.abandon(shared!, x.token('A'), 'not released in time');
    expect(await stuck.released).toEqual({ ok: false, error: 'not released in time' });
    // The worker dropped that seat's connection, and lives on with the other one.
    await vi.waitFor(() => expect(x.episode.links.get('A')!.connected).toBe(false), { timeout: 10_000 });
    expect(pool.pids).toContain(shared);
    const b = await hostBot(pool, 'y', y, 'B');
    const record = await y.episode.run({ hostPids: new Map([['A', shared!], ['B', b.pid]]) });
    expect(record.status).toBe('ok');
    expect(await innocent.released).toEqual({ ok: true });
    // A worker whose only seat is the stuck one is killed, as before, and replaced on demand.
    pool.abandon(b.pid, y.token('B'), 'unused');
    await vi.waitFor(() => expect(pool.pids).not.toContain(b.pid), { timeout: 10_000 });
  });

  it("a multiplexed seat's slot is free once its episode is over, before its process reports the seat released; seats in play stay at most N", async () => {
    const [x, y, z, w] = await Promise.all([openEpisode(), openEpisode(), openEpisode(), openEpisode()]);
    const pool = await startedPool({ size: 2, seatsPerWorker: 2 });
    // Both ready: a seat goes to the first process with room, in the pool's order.
    expect(await pool.full()).toBe(true);
    const [shared, other] = pool.pids;
    const over = await hostBot(pool, 'x', x, 'A');
    await hostBot(pool, 'y', y, 'A');
    expect(over.pid).toBe(shared);
    await x.episode.links.get('A')!.joined;
    // Full (two seats); x's episode is over as far as the orchestrator knows, its seat still connected.
    pool.seatOver(shared!, x.token('A'));
    // Bounded: without the freed slot z would wait for a release that never comes (the test then ended
    // only at the file's 180 s guard).
    const next = await within(hostBot(pool, 'z', z, 'A'), 30_000, "z's seat: the slot of x's ended seat was not freed");
    expect(next.pid).toBe(shared);
    expect(x.episode.links.get('A')!.connected).toBe(true);
    // The N-seats promise is about seats in play: the process now holds N seats in play (y, z) plus x's, whose
    // episode is recorded and which only closes its connection. A further seat goes elsewhere, not to a third
    // seat in play on `shared`.
    const fourth = await within(hostBot(pool, 'w', w, 'A'), 30_000, "w's seat: no slot on the second process");
    expect(fourth.pid).toBe(other);
    // The seat over still reports its release to its hosting (settle() waits for it).
    pool.abandon(shared!, x.token('A'), 'over');
    expect(await over.released).toEqual({ ok: false, error: 'over' });
    expect(pool.pids).toContain(shared);
  });
});
