import type { Mode } from '../../protocol/index.js';
import { metricValue } from '../aggregate.js';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import { seededRandom, type Random } from '../stats/rng.js';
import { BOOTSTRAP_RESAMPLES, mean, quantile } from '../stats/summary.js';

/**
 * How much of a mode's MutualFriends advantage over agents mode the leaked answer explains (issue 20).
 * SOTOPIA's code sent the judge-only line naming the common friend to the script writer and the
 * mindreaders; `examples/paper.yaml` reproduces that, `examples/paper-corrected.yaml` closes it. With one
 * run of each:
 *
 *   advantage(run) = mean(metric | mode, run) − mean(metric | agents, run)   (over MutualFriends episodes)
 *   explained share = (advantage(leaky) − advantage(corrected)) / advantage(leaky)
 *
 * For the first mention a smaller value is the advantage (the friend named earlier), so its advantage
 * is agents − mode. The interval is a percentile bootstrap over episodes: each of the four cells
 * (leaky/corrected × mode/agents) is resampled on its own, seeded, and the statistics recomputed.
 */

/** The metrics the leak can move: the judge's goal score, appendix G's success and its first mention. */
export const LEAK_METRICS = ['goal', 'success', 'firstMention'] as const;
export type LeakMetric = (typeof LEAK_METRICS)[number];

/** Which direction is better: the first mention is earlier when the answer is known. */
const LOWER_IS_BETTER: ReadonlySet<LeakMetric> = new Set(['firstMention']);

/** The modes SOTOPIA leaked the answer to, each compared with agents mode (which never saw it). */
export const LEAKED_MODES = ['script', 'mindreaders'] as const satisfies readonly Mode[];
export type LeakedMode = (typeof LEAKED_MODES)[number];

/** A point estimate with its percentile-bootstrap 95% interval (null when a cell has fewer than 2 values). */
export interface Estimate {
  value: number;
  lo: number | null;
  hi: number | null;
}

/** One run's advantage of the mode over agents mode. */
export interface Advantage extends Estimate {
  /** MutualFriends episodes with a value for the metric, in the mode and in agents mode. */
  nMode: number;
  nAgents: number;
}

/**
 * Why the explained share has no value or no interval:
 * - `no_leaky_advantage`: the mode has no advantage in the leaky run (≤ 0), so there is nothing to explain;
 * - `unbounded`: the leaky advantage's own interval reaches 0, so the ratio's interval is not bounded;
 * - `too_few`: a cell has fewer than 2 episodes, so there is a value but no interval.
 */
export type ShareNote = 'no_leaky_advantage' | 'unbounded' | 'too_few';

export interface LeakEffect {
  mode: LeakedMode;
  metric: LeakMetric;
  /** null when a cell has no episode with a value (the advantage is not defined). */
  leaky: Advantage | null;
  corrected: Advantage | null;
  /** advantage(leaky) − advantage(corrected): how much the advantage shrinks when the leak is closed. */
  drop: Estimate | null;
  /** drop / advantage(leaky); null with `note: 'no_leaky_advantage'` or when an advantage is not defined. */
  share: Estimate | null;
  note: ShareNote | null;
}

/** The metric's values over ok MutualFriends episodes of one mode. */
export function cellValues(metrics: readonly EpisodeMetrics[], mode: Mode, metric: LeakMetric): number[] {
  return metrics
    .filter((m) => m.status === 'ok' && m.kind === 'mutual_friends' && m.mode === mode)
    .map((m) => metricValue(m, metric))
    .filter((v): v is number => v !== null);
}

/** A resample with replacement of `values`, summarised by its mean. */
function resampledMean(values: readonly number[], rand: Random): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[Math.floor(rand() * values.length)]!;
  return s / values.length;
}

const advantageOf = (metric: LeakMetric, mode: number, agents: number) => (LOWER_IS_BETTER.has(metric) ? agents - mode : mode - agents);

function interval(draws: number[]): { lo: number; hi: number } {
  draws.sort((a, b) => a - b);
  return { lo: quantile(draws, 0.025), hi: quantile(draws, 0.975) };
}

/**
 * The leak effect for one mode and metric from the episode metrics of the leaky and the corrected run.
 * `seed` fixes the resamples; `resamples` defaults to the report's count.
 */
export function leakEffect(leakyRun: readonly EpisodeMetrics[], correctedRun: readonly EpisodeMetrics[], mode: LeakedMode, metric: LeakMetric, seed = 1, resamples = BOOTSTRAP_RESAMPLES): LeakEffect {
  const cells = {
    leakyMode: cellValues(leakyRun, mode, metric),
    leakyAgents: cellValues(leakyRun, 'agents', metric),
    correctedMode: cellValues(correctedRun, mode, metric),
    correctedAgents: cellValues(correctedRun, 'agents', metric),
  };
  const point = (m: number[], a: number[]) => (m.length && a.length ? advantageOf(metric, mean(m), mean(a)) : null);
  const leakyValue = point(cells.leakyMode, cells.leakyAgents);
  const correctedValue = point(cells.correctedMode, cells.correctedAgents);
  const base = { mode, metric };
  if (leakyValue === null || correctedValue === null) {
    const adv = (v: number | null, m: number[], a: number[]): Advantage | null => (v === null ? null : { value: v, lo: null, hi: null, nMode: m.length, nAgents: a.length });
    return { ...base, leaky: adv(leakyValue, cells.leakyMode, cells.leakyAgents), corrected: adv(correctedValue, cells.correctedMode, cells.correctedAgents), drop: null, share: null, note: leakyValue !== null && leakyValue <= 0 ? 'no_leaky_advantage' : null };
  }
  const dropValue = leakyValue - correctedValue;
  const shareValue = leakyValue > 0 ? dropValue / leakyValue : null;
  const bootstrapped = Object.values(cells).every((c) => c.length >= 2);
  const advantage = (value: number, m: number[], a: number[], draws: number[] | null): Advantage => ({ value, ...(draws ? interval(draws) : { lo: null, hi: null }), nMode: m.length, nAgents: a.length });
  if (!bootstrapped) {
    return {
      ...base,
      leaky: advantage(leakyValue, cells.leakyMode, cells.leakyAgents, null),
      corrected: advantage(correctedValue, cells.correctedMode, cells.correctedAgents, null),
      drop: { value: dropValue, lo: null, hi: null },
      share: shareValue === null ? null : { value: shareValue, lo: null, hi: null },
      note: shareValue === null ? 'no_leaky_advantage' : 'too_few',
    };
  }
  const rand = seededRandom(seed);
  const leakyDraws: number[] = [];
  const correctedDraws: number[] = [];
  const dropDraws: number[] = [];
  const shareDraws: number[] = [];
  let nonPositive = 0;
  for (let b = 0; b < resamples; b++) {
    const l = advantageOf(metric, resampledMean(cells.leakyMode, rand), resampledMean(cells.leakyAgents, rand));
    const c = advantageOf(metric, resampledMean(cells.correctedMode, rand), resampledMean(cells.correctedAgents, rand));
    leakyDraws.push(l);
    correctedDraws.push(c);
    dropDraws.push(l - c);
    if (l > 0) shareDraws.push((l - c) / l);
    else nonPositive++;
  }
  let share: Estimate | null = null;
  let note: ShareNote | null = null;
  if (shareValue === null) note = 'no_leaky_advantage';
  else {
    // A resample without a leaky advantage has no share; counted as an infinite one, it can only widen the
    // interval. When such resamples reach into the interval's tail, the interval is not bounded: said, not shown.
    const bounds = interval([...shareDraws, ...Array<number>(nonPositive).fill(Infinity)]);
    if (Number.isFinite(bounds.lo) && Number.isFinite(bounds.hi)) share = { value: shareValue, ...bounds };
    else {
      share = { value: shareValue, lo: null, hi: null };
      note = 'unbounded';
    }
  }
  return {
    ...base,
    leaky: advantage(leakyValue, cells.leakyMode, cells.leakyAgents, leakyDraws),
    corrected: advantage(correctedValue, cells.correctedMode, cells.correctedAgents, correctedDraws),
    drop: { value: dropValue, ...interval(dropDraws) },
    share,
    note,
  };
}

/** Every leaked mode × metric. */
export function leakEffects(leakyRun: readonly EpisodeMetrics[], correctedRun: readonly EpisodeMetrics[], seed = 1): LeakEffect[] {
  return LEAKED_MODES.flatMap((mode) => LEAK_METRICS.map((metric) => leakEffect(leakyRun, correctedRun, mode, metric, seed)));
}
