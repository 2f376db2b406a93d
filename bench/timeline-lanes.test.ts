import { describe, expect, it } from 'vitest';
import { laneBreakdown, rebuildLanes, type TimelineFile } from './timeline-lanes.js';

/** An episode of `moves` moves `every` ms apart, started at `at`. */
const ep = (id: string, at: number, moves: number, every: number) => ({ id, started: at, turns: Array.from({ length: moves }, (_, i) => at + (i + 1) * every), pids: [] });

describe('timeline lanes', () => {
  // Two lanes: A starts at 100 and plays two episodes (the second after a 10 ms gap); B starts at 300, plays one slow first episode, then one.
  const t: TimelineFile = {
    processes: [{ pid: 1, seen: 0, ready: 50 }, { pid: 2, seen: 0, ready: 250 }, { pid: 3, seen: 0, ready: null }],
    episodes: [ep('a1', 100, 3, 200), ep('b1', 300, 3, 300), ep('a2', 710, 3, 200), ep('b2', 1220, 3, 200), { id: 'never', turns: [], pids: [] }],
  };

  it('follows each later episode to the lane that ended last before it started', () => {
    const lanes = rebuildLanes(t.episodes, 2);
    expect(lanes.map((l) => l.map((e) => e.id))).toEqual([['a1', 'a2'], ['b1', 'b2']]);
  });

  it('splits the last lane into its start, episodes and gaps, and times the moves', () => {
    const b = laneBreakdown(t, 2);
    // B ends last (1820): started at 300, first episode 900, then 20 ms of gap and a 600 ms episode.
    expect(b.lastLane).toEqual({ episodes: 2, start: 300, firstEpisode: 900, laterEpisode: 600, gaps: 20, end: 1820 });
    expect(b.lanesStart).toEqual({ first: 100, mean: 200, last: 300 });
    expect(b.processesReady).toEqual({ first: 50, last: 250, count: 2 });
    expect(b.moves.firstEpisodeMove1.mean).toBe(250);
    expect(b.moves.laterEpisodesAfterTheFirst).toMatchObject({ n: 4, mean: 200 });
    expect(b.episodesPerLane).toEqual({ 2: 2 });
  });
});
