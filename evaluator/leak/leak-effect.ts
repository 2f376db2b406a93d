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
 * is agents − mode. The interval is a paired percentile bootstrap over instances: the four cells
 * (leaky/corrected × mode/agents) play the same MutualFriends instances (scenario, character pair,
 * repeat), so a resample draws instances with replacement and each cell's mean is taken over the drawn
 * instances it has a value for. Resampling the cells on their own would treat the instance-to-instance
 * spread as noise four times over and give intervals wider than the data warrant. A resample in which a
 * cell has no value is drawn again (at most `resamples` more times), so every draw is a full one.
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
  return [...cellByInstance(metrics, mode, metric).values()].flat();
}

/** Which instance an episode plays: the same key in every run and mode of one grid. */
export const instanceKey = (m: Pick<EpisodeMetrics, 'scenarioId' | 'pairId' | 'repeat'>) => `${m.scenarioId}\u0000${m.pairId}\u0000${m.repeat}`;

/** The metric's values over ok MutualFriends episodes of one mode, by instance (a list: a run may hold an instance twice). */
function cellByInstance(metrics: readonly EpisodeMetrics[], mode: Mode, metric: LeakMetric): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of metrics) {
    if (m.status !== 'ok' || m.kind !== 'mutual_friends' || m.mode !== mode) continue;
    const v = metricValue(m, metric);
    if (v === null) continue;
    const key = instanceKey(m);
    out.set(key, [...(out.get(key) ?? []), v]);
  }
  return out;
}

/** Each cell's values laid out by instance: `cells[c][i]` is the list of cell c's values for instance i. */
interface PairedCells {
  instances: number;
  cells: number[][][];
}

function pairCells(cells: readonly Map<string, number[]>[]): PairedCells {
  const keys = [...new Set(cells.flatMap((c) => [...c.keys()]))].sort();
  return { instances: keys.length, cells: cells.map((c) => keys.map((k) => c.get(k) ?? [])) };
}

/** One paired resample: instances drawn with replacement, each cell's mean over what it holds of them; null if a cell got nothing. */
function resampledMeans(p: PairedCells, rand: Random): number[] | null {
  const sums = p.cells.map(() => 0);
  const counts = p.cells.map(() => 0);
  for (let d = 0; d < p.instances; d++) {
    const i = Math.floor(rand() * p.instances);
    p.cells.forEach((cell, c) => {
      for (const v of cell[i]!) {
        sums[c] = sums[c]! + v;
        counts[c] = counts[c]! + 1;
      }
    });
  }
  return counts.every((n) => n > 0) ? sums.map((s, c) => s / counts[c]!) : null;
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
  const byInstance = [cellByInstance(leakyRun, mode, metric), cellByInstance(leakyRun, 'agents', metric), cellByInstance(correctedRun, mode, metric), cellByInstance(correctedRun, 'agents', metric)];
  const [leakyMode, leakyAgents, correctedMode, correctedAgents] = byInstance.map((c) => [...c.values()].flat()) as [number[], number[], number[], number[]];
  const cells = { leakyMode, leakyAgents, correctedMode, correctedAgents };
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
  const paired = pairCells(byInstance);
  const leakyDraws: number[] = [];
  const correctedDraws: number[] = [];
  const dropDraws: number[] = [];
  const shareDraws: number[] = [];
  let nonPositive = 0;
  for (let b = 0, tries = 0; b < resamples && tries < 2 * resamples; tries++) {
    const means = resampledMeans(paired, rand);
    if (!means) continue;
    b++;
    const l = advantageOf(metric, means[0]!, means[1]!);
    const c = advantageOf(metric, means[2]!, means[3]!);
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
