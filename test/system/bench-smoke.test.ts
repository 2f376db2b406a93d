import { describe, expect, it } from 'vitest';
import { botProcessCase } from '../../bench/bot-process.js';
import { engineCase } from '../../bench/engine.js';
import { latencyCase } from '../../bench/latency.js';
import { commonPrefix, prefixReuse } from '../../bench/prefix.js';
import { queueCases } from '../../bench/queue.js';
import { quantile } from '../../bench/stats.js';
import { transportCase } from '../../bench/transport.js';

/** The benchmark's code at the smallest size (the benchmark itself is `npm run bench`, not a test). */
describe('bench code (smoke, N = 1)', () => {
  it('engine case: runs bot episodes in a separate process and reports turns, overhead and memory', async () => {
    const e = await engineCase(1, { turns: 4, seatsPerProcess: 1 });
    expect(e).toMatchObject({ concurrentEpisodes: 1, episodes: 3, failed: 0, multiplexed: false });
    expect(e.turnsMeasured).toBeGreaterThanOrEqual(4);
    expect(e.turnsPerSecond).toBeGreaterThan(0);
    expect(e.overheadMs.samples).toBeGreaterThanOrEqual(3);
    expect(e.overheadMs.p99).toBeGreaterThanOrEqual(e.overheadMs.p50);
    expect(e.rssMB.orchestratorPeak).toBeGreaterThan(20);
    expect(e.rssMB.agentsPeakTotal).toBeGreaterThan(20);
  });

  it('bot process case: the peak memory of one bot agent process, above an empty Node process', async () => {
    const b = await botProcessCase({ episodes: 2, turns: 4 });
    expect(b).toMatchObject({ episodes: 2, turns: 4 });
    expect(b.processes).toBeGreaterThanOrEqual(2);
    expect(b.emptyNode.rssMB).toBeGreaterThan(10);
    expect(b.peakRssMB).toBeGreaterThan(b.emptyNode.rssMB);
    expect(b.peakPrivateMB).toBeGreaterThan(b.emptyNode.privateMB);
  });

  it('latency case: LLM seats on the fake server; efficiency against the ideal', async () => {
    const l = await latencyCase({ concurrent: 1, turns: 3, delayMs: 20, seatsPerProcess: 1 });
    expect(l).toMatchObject({ episodes: 5, failed: 0, requests: 15 });
    expect(l.window.efficiency).toBeGreaterThan(0);
    expect(l.window.efficiency).toBeLessThanOrEqual(1.05);
    // The window's agent CPU is split by process: the warm part is the per-turn figure.
    const { warm, other } = l.window.agentProcesses;
    expect(warm.processes + other.processes).toBeGreaterThanOrEqual(2);
    expect(warm.turns + other.turns).toBeCloseTo(l.window.turns, 5);
  });

  it('queue case: a parley worker on a real Redis; efficiency against the ideal', async () => {
    const [q] = await queueCases({ workerCounts: [1], lanes: 1, turns: 3, delayMs: 20, waves: 3 }, () => {});
    expect(q).toMatchObject({ workers: 1, episodes: 3, failed: 0 });
    expect(q!.efficiency).toBeGreaterThan(0);
    expect(q!.efficiency).toBeLessThanOrEqual(1.05);
  }, 60_000);

  it('transport case: the same scripted episode over ws and socket.io, per-turn overhead of each', async () => {
    for (const t of ['ws', 'socket.io'] as const) {
      const f = await transportCase(t, { episodes: 1, turns: 4 });
      expect(f).toMatchObject({ transport: t, episodes: 1, turns: 4 });
      expect(f.overheadMs.samples).toBe(3);
      expect(f.turnMs.p99).toBeGreaterThanOrEqual(f.turnMs.p50);
    }
  });

  it('prefix reuse and quantiles', () => {
    expect(commonPrefix('abcdef', 'abcxyz')).toBe(3);
    expect(prefixReuse(['ab', 'abc', 'xbc'])).toEqual([{ length: 2, reused: 0 }, { length: 3, reused: 2 }, { length: 3, reused: 0 }]);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 0.99)).toBe(5);
  });
});
