import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { processCpuReader, watchStart } from './start-watch.js';

/** A starting process whose CPU time the test sets, and the watch's timer run by hand. */
function harness(cpu: Array<number | null>) {
  const hung: string[] = [];
  let pending: (() => void) | null = null;
  let i = 0;
  const watch = watchStart(1234, {
    windowMs: 30_000,
    cpuBudgetMs: 30_000,
    onHung: (why) => hung.push(why),
    cpuMs: () => cpu[Math.min(i++, cpu.length - 1)]!,
    setTimer: (fn) => (pending = fn),
    clearTimer: () => (pending = null),
  });
  /** Lets one window pass; false when no check was pending (stopped, or given up). */
  const tick = () => {
    const fn = pending;
    pending = null;
    fn?.();
    return fn !== null;
  };
  return { hung, tick, watch };
}

describe('watchStart: a starting process is given up on when hung, not when slow', () => {
  it('keeps waiting while the process uses CPU, however little a window (a busy machine)', () => {
    const h = harness([0, 5, 9, 12, 13, 13.5]);
    for (let w = 0; w < 5; w++) expect(h.tick()).toBe(true);
    expect(h.hung).toEqual([]);
  });

  it('gives up after a whole window without CPU, saying so', () => {
    const h = harness([0, 40, 40]);
    h.tick();
    h.tick();
    expect(h.hung).toEqual(['not ready within 60000 ms, no CPU used in the last 30000 ms']);
    expect(h.tick()).toBe(false);
  });

  it('gives up once the CPU budget is used (a process spinning at start)', () => {
    const h = harness([0, 20_000, 30_500]);
    h.tick();
    h.tick();
    expect(h.hung).toEqual(['not ready after 30500 ms of CPU (60000 ms)']);
  });

  it('where CPU time cannot be read, the window is a plain deadline', () => {
    const h = harness([null, null]);
    h.tick();
    expect(h.hung).toEqual(['not ready within 30000 ms']);
  });

  it('stop() ends the watch', () => {
    const h = harness([0, 0]);
    h.watch.stop();
    expect(h.tick()).toBe(false);
    expect(h.hung).toEqual([]);
  });

  it("reads this process's CPU time, which grows as it works (Linux)", (ctx) => {
    const cpuMs = processCpuReader();
    const before = cpuMs(process.pid);
    if (before === null) return ctx.skip();
    const t = Date.now();
    while (Date.now() - t < 30);
    expect(cpuMs(process.pid)!).toBeGreaterThan(before);
    expect(cpuMs(2 ** 30)).toBeNull();
  });

  it('keeps counting the CPU of a thread that has exited (Linux): the sum never goes down', async (ctx) => {
    const cpuMs = processCpuReader();
    if (cpuMs(process.pid) === null) return ctx.skip();
    // A thread that burns ~150 ms of CPU, says so, and waits to be ended.
    const worker = new Worker("const t = Date.now(); while (Date.now() - t < 150); require('node:worker_threads').parentPort.postMessage('burnt'); setInterval(() => {}, 1000);", { eval: true });
    await once(worker, 'message');
    const withThread = cpuMs(process.pid)!;
    await worker.terminate();
    // The thread's ~150 ms is gone from /proc/<pid>/task; a plain sum would now drop by that much.
    expect(cpuMs(process.pid)!).toBeGreaterThanOrEqual(withThread);
  });
});
