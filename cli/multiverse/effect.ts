import { rubricEpisodeScore, type EpisodeMetrics } from '../../evaluator/metrics/episode-metrics.js';
import { metricValue as aggregateMetric } from '../../evaluator/aggregate.js';
import { pairedDifference } from '../../evaluator/stats/paired.js';
import type { MetricName } from './claim.js';

/**
 * The claim's rule metrics under their names in the report's aggregation (evaluator/aggregate.ts), which
 * computes them: a multiverse and a report read one episode's success, words per turn, repetition and
 * moves the same way.
 */
const AGGREGATE_METRIC = { success: 'success', words_per_turn: 'wordsPerTurn', repetition: 'repetition', moves: 'turns' } as const;

/** One episode's value of the claim's metric; null when it has none (failed, open task, unjudged). */
export function metricValue(m: EpisodeMetrics, metric: MetricName): number | null {
  if (m.status !== 'ok') return null;
  // The judgement the side asked for, on its rubric (arm-metrics.ts): its goal dimension.
  if (metric === 'goal') return rubricEpisodeScore(m, 'goal');
  // Pairwise: read from the comparison of the two sides (naturalness.ts), not from one episode.
  if (metric === 'naturalness') return null;
  return aggregateMetric(m, AGGREGATE_METRIC[metric]);
}

/** A specification's effect a − b, paired by scenario (both sides play the same scenarios). */
export interface Effect {
  /** Scenarios with a value on both sides. */
  pairs: number;
  effect: number | null;
  lo: number | null;
  hi: number | null;
}

/** Per scenario, the mean over its episodes (repeats, modes) of the metric. */
function byScenario(metrics: readonly EpisodeMetrics[], metric: MetricName): Map<string, number> {
  const sums = new Map<string, { s: number; n: number }>();
  for (const m of metrics) {
    const v = metricValue(m, metric);
    if (v === null) continue;
    const acc = sums.get(m.scenarioId) ?? { s: 0, n: 0 };
    acc.s += v;
    acc.n += 1;
    sums.set(m.scenarioId, acc);
  }
  return new Map([...sums].map(([k, { s, n }]) => [k, s / n]));
}

/** The paired effect and its bootstrap interval (evaluator/stats), over the scenarios both sides scored. */
export function pairedEffect(a: readonly EpisodeMetrics[], b: readonly EpisodeMetrics[], metric: MetricName, seed = 1): Effect {
  const va = byScenario(a, metric);
  const vb = byScenario(b, metric);
  const diffs = [...va.keys()].sort().filter((k) => vb.has(k)).map((k) => va.get(k)! - vb.get(k)!);
  const d = pairedDifference(diffs, seed);
  return { pairs: diffs.length, effect: d.mean, lo: d.lo, hi: d.hi };
}

/** Verdict thresholds, written beside the verdict. */
export const ROBUST_SHARE = 0.9;

export type Verdict = 'robust' | 'fragile' | 'reversed';

export interface CurveSummary {
  specifications: number;
  /** Specifications with an effect (some paired scenario). */
  measured: number;
  /** Share of all specifications whose effect has the claimed sign (strictly). */
  holdShare: number;
  /** Share whose interval excludes 0 on the claimed side. */
  significantShare: number;
  median: number | null;
  verdict: Verdict;
  thresholds: string;
}

/**
 * robust: at least 90% of specifications hold in sign; reversed: the median effect has the opposite sign;
 * fragile: anything else (including a median of exactly 0).
 */
export function summarizeCurve(effects: readonly Effect[], sign: 1 | -1): CurveSummary {
  const values = effects.map((e) => e.effect).filter((v): v is number => v !== null).sort((x, y) => x - y);
  const holds = effects.filter((e) => e.effect !== null && sign * e.effect > 0).length;
  const significant = effects.filter((e) => e.lo !== null && e.hi !== null && (sign > 0 ? e.lo > 0 : e.hi < 0)).length;
  const n = effects.length;
  const median = values.length ? (values.length % 2 ? values[(values.length - 1) / 2]! : (values[values.length / 2 - 1]! + values[values.length / 2]!) / 2) : null;
  const holdShare = n ? holds / n : 0;
  const verdict: Verdict = holdShare >= ROBUST_SHARE ? 'robust' : median !== null && sign * median < 0 ? 'reversed' : 'fragile';
  return {
    specifications: n,
    measured: values.length,
    holdShare,
    significantShare: n ? significant / n : 0,
    median,
    verdict,
    thresholds: `robust: ≥ ${ROBUST_SHARE * 100}% of specifications hold in sign; reversed: the median effect has the opposite sign; fragile: otherwise`,
  };
}
