import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { poolSizeFor } from '../orchestrator/supervisor/pool-size.js';
import { auditRun } from './helpers/audit.js';
import { tempDir } from './helpers/processes.js';

/**
 * Isolation under pooling and multiplexing (runs-at-scale contract, point 4), checked from the episode
 * records alone: no process ever hosted two seats of one episode, while processes were reused across
 * episodes (pooled) and hosted seats of different episodes at the same time (multiplexed).
 */
describe('no process hosts two seats of one episode, pooled or multiplexed', () => {
  const tmp = tempDir('iso-pool');
  afterAll(() => tmp.remove());

  const seatPids = (r: EpisodeRecord) => r.seats.map((s) => s.pids ?? [s.pid!]);
  const interval = (r: EpisodeRecord) => {
    const start = Date.parse(r.startedAt);
    return [start, start + r.durationMs] as const;
  };

  /** Checks one run's records; returns pid → episodes it served, for the reuse/multiplexing checks. */
  function check(records: EpisodeRecord[]): Map<number, EpisodeRecord[]> {
    const served = new Map<number, EpisodeRecord[]>();
    for (const r of records) {
      expect(r.status).toBe('ok');
      const perSeat = seatPids(r);
      const flat = perSeat.flat();
      expect(flat.every((p) => Number.isInteger(p) && p !== process.pid)).toBe(true);
      // Disjoint per seat: each process served at most one seat of this episode.
      expect(new Set(flat).size, `${r.episodeId}: ${JSON.stringify(perSeat)}`).toBe(flat.length);
      for (const p of new Set(flat)) served.set(p, [...(served.get(p) ?? []), r]);
    }
    return served;
  }

  it('pooled (one seat per process at a time): processes are reused across episodes', async () => {
    const out = join(tmp.path, 'pooled');
    const config = RunConfig.parse({ scenarios: 'builtin', modes: ['agents', 'mindreaders'], out, concurrency: 4, limit: 24, agents: [{ spec: 'bot:chatter', params: { delayMs: 2 } }], maxTurns: 10 });
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' });
    expect(result.ran).toHaveLength(24);
    const served = check(result.ran);
    // 4 episodes × 2 seats in flight (+ spares) → a pool of 14 processes for 24 episodes: reused.
    expect(served.size).toBeLessThanOrEqual(poolSizeFor(4, 2, 1));
    expect(Math.max(...[...served.values()].map((eps) => eps.length))).toBeGreaterThan(1);
    expect(auditRun(out).violations).toEqual([]);
  });

  it('multiplexed (up to 4 seats per process): processes host seats of different episodes at once, never two of one', async () => {
    const out = join(tmp.path, 'multiplexed');
    const config = RunConfig.parse({
      scenarios: 'builtin', modes: ['agents', 'mindreaders'], out, concurrency: 6, limit: 24, maxTurns: 10,
      agents: [{ spec: 'bot:chatter', params: { delayMs: 5 } }], pool: { multiplex: true, seatsPerProcess: 4 },
    });
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' });
    expect(result.ran).toHaveLength(24);
    const served = check(result.ran);
    // 6 episodes × 2 seats on processes of 4 seats: a handful of processes...
    expect(served.size).toBeLessThanOrEqual(poolSizeFor(6, 2, 4));
    // ...each of which served overlapping episodes (seats of different episodes at the same time).
    const overlapping = [...served.values()].some((eps) =>
      eps.some((a, i) => eps.slice(i + 1).some((b) => interval(a)[0] < interval(b)[1] && interval(b)[0] < interval(a)[1])),
    );
    expect(overlapping).toBe(true);
    expect(auditRun(out).violations).toEqual([]);
  });
});
