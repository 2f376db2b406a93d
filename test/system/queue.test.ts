import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EpisodeRecord } from '../../protocol/index.js';
import { parley, within, type CliProcess } from '../helpers/processes.js';
import { queueSuite } from '../helpers/queue-suite.js';

/**
 * Issue 15, Contract 1 and 4: `parley run --queue` with two `parley worker`s on a real redis-server
 * ends with the full run directory — 300 records, each episode once, every seat's ledger, seats played
 * by both workers' agent processes — and an unreachable Redis costs one line and writes nothing.
 */
describe('parley run --queue with two parley workers (real Redis)', () => {
  const suite = queueSuite('queue');
  const { tmp, procs } = suite;

  it('Contract 1: 300 records, each episode once, every ledger present, both workers’ agent processes', async () => {
    const out = join(tmp.path, 'run');
    const workers = [parley(['worker', '--queue', suite.redis.url]), parley(['worker', '--queue', suite.redis.url])];
    procs.push(...workers);
    // The experiment file sets what only a local pool applies: the coordinator says so and records it as not applied.
    const experiment = join(tmp.path, 'pool.yaml');
    writeFileSync(experiment, 'concurrency: 8\npool: { multiplex: true, seatsPerProcess: 3 }\n');
    const coordinator = parley(['run', '--queue', suite.redis.url, '--experiment', experiment, '--scenarios', 'builtin', '--modes', 'agents,mindreaders,script', '--repeats', '5', '--out', out]);
    procs.push(coordinator);
    const code = await within(coordinator.exited, 150_000, 'coordinator', [coordinator, ...workers]);
    expect(code, [...coordinator.stdout, ...coordinator.stderr].join('\n')).toBe(0);

    const lines = readFileSync(join(out, 'episodes.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    const records = lines.map((l) => EpisodeRecord.parse(JSON.parse(l)));
    expect(records).toHaveLength(300);
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(300);

    // Every live seat's ledger, as in a local run.
    for (const r of records) {
      const seats = r.mode === 'script' ? ['script'] : r.seats.map((s) => s.seat);
      for (const seat of seats) expect(existsSync(join(out, 'ledgers', r.episodeId, `${seat}.jsonl`)), `${r.episodeId}/${seat}`).toBe(true);
    }
    expect(readdirSync(join(out, 'ledgers'))).toHaveLength(300);

    // Each worker names its agent processes; the records' pids come from both workers' sets.
    const agentPids = (w: CliProcess) => new Set(w.stdout.flatMap((l) => l.match(/^worker \d+: agent processes ([\d,]+)/)?.[1]!.split(',').map(Number) ?? []));
    const [a, b] = workers.map(agentPids) as [Set<number>, Set<number>];
    expect(a.size).toBeGreaterThan(0);
    expect(b.size).toBeGreaterThan(0);
    const used = records.flatMap((r) => [...r.seats, ...(r.scriptWriter ? [r.scriptWriter] : [])].flatMap((s) => s.pids ?? (s.pid !== null ? [s.pid] : [])));
    expect(used.some((p) => a.has(p))).toBe(true);
    expect(used.some((p) => b.has(p))).toBe(true);
    // Two seats of one episode never share a process.
    for (const r of records) {
      const pids = r.seats.map((s) => s.pid).filter((p) => p !== null);
      if (r.mode !== 'script') expect(pids).toHaveLength(r.seats.length);
      expect(new Set(pids).size, r.episodeId).toBe(pids.length);
    }
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.hosting).toBe('queue');
    expect(run.stats.episodes.total).toBe(300);
    expect(run.notApplied).toEqual({ concurrency: 8, pool: { multiplex: true, seatsPerProcess: 3 } });
    expect(run.config).not.toHaveProperty('concurrency');
    expect(run.config).not.toHaveProperty('pool');
    // What the workers applied instead: each one's own flags (here their defaults), by host and pid.
    const workerPids = workers.map((w) => Number(w.stdout.map((l) => /^worker (\d+): agent processes/.exec(l)?.[1]).find(Boolean))).sort();
    expect(run.queue.workers.map((w: { pid: number }) => w.pid).sort()).toEqual(workerPids);
    for (const w of run.queue.workers) expect(w).toEqual({ host: expect.any(String), pid: expect.any(Number), concurrency: 4, pool: { multiplex: false, seatsPerProcess: 1 } });
    expect(coordinator.stdout.filter((l) => /not applied with --queue/.test(l))).toEqual([expect.stringMatching(/^concurrency: 8, pool: .*each worker decides/)]);

    // SIGTERM: each worker stops gracefully (exit 0).
    for (const w of workers) w.child.kill('SIGTERM');
    expect(await within(Promise.all(workers.map((w) => w.exited)), 30_000, 'workers stop', workers)).toEqual([0, 0]);
  }, 200_000);

  it('Contract 4: an unreachable Redis is one line naming the URL, a non-zero exit, nothing written', async () => {
    // A port nothing listens on: redis-server's own, after it is stopped, would race with the other test.
    const out = join(tmp.path, 'never');
    const url = 'redis://127.0.0.1:1';
    const c = parley(['run', '--queue', url, '--scenarios', 'builtin', '--modes', 'agents', '--out', out]);
    procs.push(c);
    const code = await within(c.exited, 30_000, 'coordinator', [c]);
    expect(code).not.toBe(0);
    const output = [...c.stdout, ...c.stderr].filter((l) => l.trim() !== '');
    expect(output).toHaveLength(1);
    expect(output[0]).toContain(url);
    expect(existsSync(out)).toBe(false);

    const w = parley(['worker', '--queue', 'redis://user:secret@127.0.0.1:1/0']);
    procs.push(w);
    expect(await within(w.exited, 30_000, 'worker', [w])).not.toBe(0);
    const wOut = [...w.stdout, ...w.stderr].filter((l) => l.trim() !== '');
    expect(wOut).toHaveLength(1);
    expect(wOut[0]).toContain('redis://user:***@127.0.0.1:1/0');
    expect(wOut[0]).not.toContain('secret');
  }, 60_000);
});
