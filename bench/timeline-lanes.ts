/**
 * Where a latency-case run's time went, from its timeline (bench/timeline.ts, `BENCH_TIMELINE=<file>`): the
 * lanes rebuilt from the episodes, the last lane's parts (its start, its first episode, its later ones, the
 * gaps between them: the whole run ends when it does), and the moves' times. bench/start-up.md, `ramp10`.
 *   tsx bench/timeline-lanes.ts <timeline.json> [--lanes 50]
 */
import { readFileSync } from 'node:fs';
import { quantile, round } from './stats.js';

export interface TimelineEpisode {
  id: string;
  prepared?: number;
  started?: number;
  turns: number[];
  pids: number[];
}

export interface TimelineFile {
  processes: Array<{ pid: number; seen: number; ready: number | null }>;
  episodes: TimelineEpisode[];
}

type Played = TimelineEpisode & { started: number };

const end = (e: Played): number => e.turns.at(-1) ?? e.started;
const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/**
 * The lanes: the first `lanes` episodes to start head one each; every later episode follows the lane whose
 * last episode ended latest before it started (a lane starts its next episode as soon as it can).
 */
export function rebuildLanes(episodes: readonly TimelineEpisode[], lanes: number): Played[][] {
  const played = episodes.filter((e): e is Played => e.started !== undefined && e.turns.length > 0).sort((a, b) => a.started - b.started);
  const out = played.slice(0, lanes).map((e) => [e]);
  for (const e of played.slice(lanes)) {
    let best: Played[] | undefined;
    for (const lane of out) {
      const last = end(lane.at(-1)!);
      if (last <= e.started && (!best || last > end(best.at(-1)!))) best = lane;
    }
    (best ?? out[0]!).push(e);
  }
  return out;
}

/** A lane's parts, ms: start, first episode, mean later episode, the gaps between its episodes, end. */
function laneParts(lane: readonly Played[]) {
  const durations = lane.map((e) => end(e) - e.started);
  const gaps = lane.slice(1).map((e, i) => e.started - end(lane[i]!));
  return { episodes: lane.length, start: lane[0]!.started, first: durations[0]!, later: mean(durations.slice(1)), gaps: gaps.reduce((a, b) => a + b, 0), end: end(lane.at(-1)!) };
}

/** Mean and quantiles of move times, ms. */
function summary(xs: readonly number[]) {
  return { n: xs.length, mean: round(mean(xs), 1), p50: round(quantile(xs, 0.5), 1), p90: round(quantile(xs, 0.9), 1), p99: round(quantile(xs, 0.99), 1) };
}

export function laneBreakdown(t: TimelineFile, lanes: number) {
  const rebuilt = rebuildLanes(t.episodes, lanes);
  const parts = rebuilt.map(laneParts);
  const last = parts.reduce((a, b) => (b.end > a.end ? b : a));
  const firsts = rebuilt.map((l) => l[0]!);
  const laters = rebuilt.flatMap((l) => l.slice(1));
  const ready = t.processes.flatMap((p) => (p.ready === null ? [] : [p.ready])).sort((a, b) => a - b);
  const r = (x: number) => round(x, 0);
  return {
    processesReady: { first: r(ready[0] ?? Number.NaN), last: r(ready.at(-1) ?? Number.NaN), count: ready.length },
    lanesStart: { first: r(Math.min(...parts.map((p) => p.start))), mean: r(mean(parts.map((p) => p.start))), last: r(Math.max(...parts.map((p) => p.start))) },
    lastLane: { episodes: last.episodes, start: r(last.start), firstEpisode: r(last.first), laterEpisode: r(last.later), gaps: r(last.gaps), end: r(last.end) },
    means: { firstEpisode: r(mean(parts.map((p) => p.first))), laterEpisode: r(mean(parts.map((p) => p.later))), gapsPerLane: r(mean(parts.map((p) => p.gaps))) },
    // A move's time: since the previous move (the first move's, since the episode's start).
    moves: {
      firstEpisodeMove1: summary(firsts.map((e) => e.turns[0]! - e.started)),
      firstEpisodeMove2: summary(firsts.flatMap((e) => (e.turns.length > 1 ? [e.turns[1]! - e.turns[0]!] : []))),
      laterEpisodesAfterTheFirst: summary(laters.flatMap((e) => e.turns.slice(1).map((t, i) => t - e.turns[i]!))),
    },
    episodesPerLane: parts.reduce<Record<number, number>>((acc, p) => ((acc[p.episodes] = (acc[p.episodes] ?? 0) + 1), acc), {}),
  };
}

if (process.argv[1]?.endsWith('timeline-lanes.ts')) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: tsx bench/timeline-lanes.ts <timeline.json> [--lanes 50]');
  const i = process.argv.indexOf('--lanes');
  const lanes = i >= 0 ? Number(process.argv[i + 1]) : 50;
  console.log(JSON.stringify(laneBreakdown(JSON.parse(readFileSync(file, 'utf8')) as TimelineFile, lanes), null, 2));
}
