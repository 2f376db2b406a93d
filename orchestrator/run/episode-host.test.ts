import { describe, expect, it } from 'vitest';
import { openFixture } from '../../test/fixtures/scenarios.js';
import type { EpisodePlan } from '../episode-plan.js';
import { browsersMayCome, hostPoolSize, openSeats, seatTokenTtlMs, TOKEN_TTL_MS } from './episode-host.js';

const plan = (policies: EpisodePlan['policies']): EpisodePlan => ({ episodeId: 'e', scenario: openFixture(3), mode: 'agents', repeat: 0, ...(policies ? { policies } : {}) });
const bots = plan({ a: { spec: 'bot:random', params: {} }, b: { spec: 'bot:random', params: {} } });
const withPerson = plan({ a: { spec: 'human', params: {} }, b: { spec: 'bot:random', params: {} } });

describe('EpisodeHost: one owner of the seat token TTL for run, serve and queue workers', () => {
  it('a local agent process gets a minute, a remote agent half an hour', () => {
    expect(seatTokenTtlMs(bots, {})).toBe(TOKEN_TTL_MS.localAgent);
    expect(seatTokenTtlMs(plan(undefined), { remote: true })).toBe(TOKEN_TTL_MS.remoteAgent);
    expect(TOKEN_TTL_MS.localAgent).toBeLessThan(TOKEN_TTL_MS.remoteAgent);
  });

  it('an episode with a person waits at least the human join TTL, never less than the host TTL', () => {
    expect(openSeats(withPerson)).toEqual(['a']);
    expect(seatTokenTtlMs(withPerson, {})).toBe(TOKEN_TTL_MS.human);
    expect(seatTokenTtlMs(withPerson, { humanJoinTtlMs: 5_000 })).toBe(TOKEN_TTL_MS.localAgent);
    expect(seatTokenTtlMs(withPerson, { tokenTtlMs: 2 * TOKEN_TTL_MS.human })).toBe(2 * TOKEN_TTL_MS.human);
  });

  it('a TTL given by the user (`serve --token-ttl`) wins for agents', () => {
    expect(seatTokenTtlMs(bots, { remote: true, tokenTtlMs: 1_234 })).toBe(1_234);
  });

  it('sizes the pool from episodes in flight and seats per process, as the local run always did', () => {
    expect(hostPoolSize({ concurrency: 2, seatsPerEpisode: 2, seatsPerProcess: 1, warm: [] })).toBe(6);
    expect(hostPoolSize({ concurrency: 2, seatsPerEpisode: 2, seatsPerProcess: 0, warm: [] })).toBe(6);
  });

  it('keeps no spare processes for episodes a run does not have: a short run starts only the seats it plays', () => {
    // Every episode in the first wave: nothing comes after, so no spares (6 processes before for 4 seats).
    expect(hostPoolSize({ concurrency: 2, later: 0, seatsPerEpisode: 2, seatsPerProcess: 1, warm: [] })).toBe(4);
    // One episode after the first wave: spares for one; many after it: for up to four, as before.
    expect(hostPoolSize({ concurrency: 4, later: 1, seatsPerEpisode: 2, seatsPerProcess: 1, warm: [] })).toBe(10);
    expect(hostPoolSize({ concurrency: 8, later: 100, seatsPerEpisode: 2, seatsPerProcess: 1, warm: [] })).toBe(24);
    // Multiplexed: spare seats are counted in seats, then packed into processes.
    expect(hostPoolSize({ concurrency: 6, later: 0, seatsPerEpisode: 2, seatsPerProcess: 4, warm: [] })).toBe(3);
  });

  it('serves browsers (socket.io, the seat page) only where one may come: remote seats, a person, the watch page, allowed origins', () => {
    const local = { remote: false, watch: false, allowOrigins: [] };
    expect(browsersMayCome([bots, bots], local)).toBe(false);
    expect(browsersMayCome([bots, withPerson], local)).toBe(true);
    expect(browsersMayCome([bots], { ...local, remote: true })).toBe(true);
    expect(browsersMayCome([bots], { ...local, watch: true })).toBe(true);
    expect(browsersMayCome([bots], { ...local, allowOrigins: ['https://lab.example'] })).toBe(true);
  });
});
