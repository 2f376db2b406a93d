import { describe, expect, it } from 'vitest';
import type { RunJson } from '../run-dir/index.js';
import { noteWorker, QUEUE_WORKERS_KEPT, workerDecidedLine } from './worker-decided-settings.js';

describe('workerDecidedLine', () => {
  it('says nothing for the defaults (nothing was given)', () => {
    expect(workerDecidedLine({ concurrency: 4, pool: { multiplex: false, seatsPerProcess: 1 } })).toBeNull();
  });

  it("names an experiment file's concurrency and pool as not applied", () => {
    expect(workerDecidedLine({ concurrency: 8, pool: { multiplex: false, seatsPerProcess: 1 } })).toMatch(/^concurrency: 8: not applied with --queue \(each worker decides/);
    expect(workerDecidedLine({ concurrency: 4, pool: { multiplex: true, seatsPerProcess: 16 } })).toMatch(/^pool: \{"multiplex":true,"seatsPerProcess":16\}: not applied/);
  });
});

describe('noteWorker: what the workers applied, in run.json queue.workers', () => {
  const code = { package: '0.1.0', git: null };
  const worker = (pid: number, seatsPerProcess = 1, host = 'h1') => ({ host, pid, agentPids: [], code, settings: { concurrency: 8, pool: { multiplex: seatsPerProcess > 1, seatsPerProcess } } });

  it('names each worker once, with the concurrency and pool it applied', () => {
    const queue: NonNullable<RunJson['queue']> = { url: 'redis://x', runKey: 'k', queue: 'q' };
    // true when it added an entry: the coordinator then rewrites run.json (a kill mid-run keeps the list).
    expect(noteWorker(queue, worker(1))).toBe(true);
    expect(noteWorker(queue, worker(2, 16))).toBe(true);
    expect(noteWorker(queue, worker(1))).toBe(false);
    expect(noteWorker(queue, worker(1, 1, 'h2'))).toBe(true);
    expect(queue.workers).toEqual([
      { host: 'h1', pid: 1, concurrency: 8, pool: { multiplex: false, seatsPerProcess: 1 } },
      { host: 'h1', pid: 2, concurrency: 8, pool: { multiplex: true, seatsPerProcess: 16 } },
      { host: 'h2', pid: 1, concurrency: 8, pool: { multiplex: false, seatsPerProcess: 1 } },
    ]);
  });

  it('an older worker that reports no settings is not named; the list is bounded', () => {
    const queue: NonNullable<RunJson['queue']> = { url: 'redis://x', runKey: 'k', queue: 'q' };
    expect(noteWorker(queue, { host: 'h', pid: 1, agentPids: [], code })).toBe(false);
    expect(queue).not.toHaveProperty('workers');
    const added = Array.from({ length: QUEUE_WORKERS_KEPT + 5 }, (_, i) => noteWorker(queue, worker(i + 1))).filter(Boolean).length;
    expect(added).toBe(QUEUE_WORKERS_KEPT);
    expect(queue.workers).toHaveLength(QUEUE_WORKERS_KEPT);
  });
});
