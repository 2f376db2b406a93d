import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EpisodeRecord } from '../../protocol/index.js';
import { parley, within, type CliProcess } from '../helpers/processes.js';
import { queueSuite } from '../helpers/queue-suite.js';

/**
 * Issue 15, Contract 2: a worker SIGKILLed while its episodes are in flight (and, for good measure, the
 * coordinator SIGKILLed and rerun with the same --out), a third worker started later: still 300 records,
 * each episode once, every line parses, and every ledger is whole (from the welcome to the end frame):
 * the killed worker's episodes were rerun from a clean start, not continued from half ledgers.
 */
describe('parley worker killed mid-episode (real Redis)', () => {
  const suite = queueSuite('queue-kill');
  const { tmp, procs } = suite;
  // A short job lock so that a dead worker's jobs are handed out again within seconds, not a minute.
  const env = { ...process.env, PARLEY_QUEUE_LOCK_MS: '3000' };
  const start = (args: string[]) => {
    const p = parley(args, { env });
    procs.push(p);
    return p;
  };

  it('still ends with 300 records, each once, every line parsing, every ledger whole', async () => {
    const out = join(tmp.path, 'run');
    const file = join(out, 'episodes.jsonl');
    const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);
    const RUN = ['run', '--queue', suite.redis.url, '--scenarios', 'builtin', '--modes', 'agents,mindreaders,script', '--repeats', '5', '--out', out];
    // Multiplexed workers: 2 agent processes each instead of 14 (~0.3 s of CPU apiece to start). What is
    // tested is the jobs of a dead worker handed out again and rerun from a clean start, not one seat per
    // process (test/system/queue.test.ts runs the contract's default workers and checks their pids).
    const WORKER = ['worker', '--queue', suite.redis.url, '--multiplex'];
    const victim = start(WORKER);
    const survivor = start(WORKER);
    const first = start(RUN);
    const done = (w: CliProcess) => w.stdout.filter((l) => l.startsWith('done ')).length;

    // Kill the victim while it is busy (it runs 4 episodes at a time and has finished a few).
    await within(vi.waitFor(() => expect(done(victim)).toBeGreaterThanOrEqual(8), { timeout: 60_000, interval: 5 }), 65_000, 'victim busy', [victim, survivor, first]);
    victim.child.kill('SIGKILL');
    await victim.exited;

    // The coordinator too, once it has collected some; its rerun collects what finished meanwhile.
    await within(vi.waitFor(() => expect(lines().length).toBeGreaterThanOrEqual(40), { timeout: 60_000, interval: 5 }), 65_000, 'records', [survivor, first]);
    first.child.kill('SIGKILL');
    await first.exited;
    // Killed mid-run, the coordinator has already written what the workers that returned episodes applied.
    const workerPid = (w: CliProcess) => Number(w.stdout.map((l) => /^worker (\d+): agent processes/.exec(l)?.[1]).find(Boolean));
    const named = (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { queue?: { workers?: Array<{ pid: number; pool: { multiplex: boolean } }> } }).queue?.workers ?? [];
    expect(named.length, 'run.json queue.workers after the kill').toBeGreaterThan(0);
    expect(named.every((w) => [workerPid(victim), workerPid(survivor)].includes(w.pid) && w.pool.multiplex)).toBe(true);
    const late = start(WORKER);
    const second = start(RUN);
    const code = await within(second.exited, 150_000, 'second coordinator', [second, survivor, late]);
    expect(code, [...second.stdout, ...second.stderr].join('\n')).toBe(0);

    const all = lines();
    const records = all.map((l) => EpisodeRecord.parse(JSON.parse(l)));
    expect(records).toHaveLength(300);
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(300);
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    expect(done(late), 'the late worker took part').toBeGreaterThan(0);
    // The victim's in-flight jobs were found stalled by a live worker and handed out again.
    const stalled = [survivor, late].flatMap((w) => w.stdout.filter((l) => /^job \S+ stalled/.test(l)));
    expect(stalled.length).toBeGreaterThan(0);

    // Every ledger is one whole attempt: its opening frame first and once, the end frame last.
    for (const r of records) {
      const seats = r.mode === 'script' ? ['script'] : r.seats.map((s) => s.seat);
      for (const seat of seats) {
        const frames = readFileSync(join(out, 'ledgers', r.episodeId, `${seat}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string });
        // Agents are welcomed first; the script writer's first frame is its one request.
        const opening = r.mode === 'script' ? 'script.request' : 'seat.welcome';
        expect(frames[0]?.type, `${r.episodeId}/${seat}`).toBe(opening);
        expect(frames.at(-1)?.type, `${r.episodeId}/${seat}`).toBe('episode.end');
        expect(frames.filter((f) => f.type === opening)).toHaveLength(1);
      }
    }
    for (const w of [survivor, late]) w.child.kill('SIGTERM');
    expect(await within(Promise.all([survivor.exited, late.exited]), 30_000, 'workers stop', [survivor, late])).toEqual([0, 0]);
  }, 300_000);
});
