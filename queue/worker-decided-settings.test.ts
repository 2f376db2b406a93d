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
    noteWorker(queue, worker(1));
    noteWorker(queue, worker(2, 16));
    noteWorker(queue, worker(1));
    noteWorker(queue, worker(1, 1, 'h2'));
    expect(queue.workers).toEqual([
      { host: 'h1', pid: 1, concurrency: 8, pool: { multiplex: false, seatsPerProcess: 1 } },
      { host: 'h1', pid: 2, concurrency: 8, pool: { multiplex: true, seatsPerProcess: 16 } },
      { host: 'h2', pid: 1, concurrency: 8, pool: { multiplex: false, seatsPerProcess: 1 } },
    ]);
  });

  it('an older worker that reports no settings is not named; the list is bounded', () => {
    const queue: NonNullable<RunJson['queue']> = { url: 'redis://x', runKey: 'k', queue: 'q' };
    noteWorker(queue, { host: 'h', pid: 1, agentPids: [], code });
    expect(queue).not.toHaveProperty('workers');
    for (let pid = 1; pid <= QUEUE_WORKERS_KEPT + 5; pid++) noteWorker(queue, worker(pid));
    expect(queue.workers).toHaveLength(QUEUE_WORKERS_KEPT);
  });
});
