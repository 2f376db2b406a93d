import { describe, expect, it } from 'vitest';
import { ONE_SEAT_PROCESS_NODE_FLAGS, perProcessSeed } from './one-seat-process-flags.js';

describe('one-seat process flags', () => {
  it('a process under --predictable gets a random seed of its own (V8 would otherwise seed every one alike)', () => {
    const args = ['--snapshot-blob', 'x.blob', ...ONE_SEAT_PROCESS_NODE_FLAGS];
    const seeds = new Set(Array.from({ length: 20 }, () => perProcessSeed(args)[0]));
    expect(seeds.size).toBeGreaterThan(15);
    for (const seed of seeds) expect(seed).toMatch(/^--random-seed=[1-9]\d*$/);
    expect(perProcessSeed(args, () => 7)).toEqual(['--random-seed=7']);
  });

  it('no seed without --predictable, and none over a seed already given', () => {
    expect(perProcessSeed(['--snapshot-blob', 'x.blob'])).toEqual([]);
    expect(perProcessSeed(['--predictable', '--random-seed=5'])).toEqual([]);
    // A user's --no-predictable (PARLEY_WORKER_NODE_ARGS, after the pool's flags) turns it off: V8 seeds itself.
    expect(perProcessSeed(['--predictable', '--no-predictable'])).toEqual([]);
    expect(perProcessSeed(['--no-predictable', '--predictable'], () => 9)).toEqual(['--random-seed=9']);
  });
});
