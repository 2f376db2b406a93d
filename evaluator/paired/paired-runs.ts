import { ALL_METRICS, METRIC_LABELS, metricValue } from '../aggregate.js';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import { rubricEpisodeScore } from '../metrics/episode-metrics.js';
import { runMetrics } from '../metrics/run-metrics.js';
import { isSotopia } from '../rubric/builtin.js';
import type { RunDir } from '../run-dir.js';
import { pairedDifference, type PairedTest } from '../stats/paired.js';
import { mean } from '../stats/summary.js';

/**
 * Paired comparison of two runs over the same scenarios (`parley report A B --paired`): fine-tuned against
 * base, model A against model B. Episodes of A and B are matched by what they share — scenario, character
 * pair, mode and repeat (`--by episode`, the default), scenario and mode with repeats and pairs averaged
 * first (`--by scenario`: one pair per scenario), or each seat of matched episodes (`--by seat`, for the
 * measures a seat has: judge scores, words per turn, repetition, non-verbal share). Per mode and measure:
 * the mean difference A − B with its percentile-bootstrap 95% CI and the paired permutation (sign-flip)
 * p-value of evaluator/stats/paired.ts, the same test as the report's gaps between modes.
 */
export type PairBy = 'episode' | 'scenario' | 'seat';
export const PAIR_BY: readonly PairBy[] = ['episode', 'scenario', 'seat'];

export interface PairedMeasure {
  key: string;
  label: string;
}

export interface PairedRow {
  /** A mode, or `all` (every mode's pairs together) when the runs share more than one. */
  mode: string;
  measure: PairedMeasure;
  meanA: number | null;
  meanB: number | null;
  /** A − B over the pairs where both have a value. */
  diff: PairedTest;
}

export interface PairedComparison {
  by: PairBy;
  nameA: string;
  nameB: string;
  /** Matched units per mode, and units of each run with no partner (failed episodes are left out). */
  matched: Record<string, number>;
  unmatchedA: number;
  unmatchedB: number;
  rows: PairedRow[];
}

/** Seat-level measures (`--by seat`): what one seat has by itself. */
const SEAT_RULES = new Set(['wordsPerTurn', 'repetition', 'nonverbalShare']);

/** The measures present in either run: rule metrics, SOTOPIA-EVAL's dimensions, then every other rubric's. */
function measuresOf(all: readonly EpisodeMetrics[], by: PairBy): PairedMeasure[] {
  const out: PairedMeasure[] = ALL_METRICS.filter((m) => by !== 'seat' || SEAT_RULES.has(m) || !['success', 'turns', 'firstMention', 'mentioned', 'deal', 'sellerUtility'].includes(m)).map((m) => ({ key: m, label: METRIC_LABELS[m] }));
  const seen = new Set<string>();
  for (const m of all) {
    for (const j of m.otherRubrics) {
      const r = j.info.rubric!;
      for (const d of r.dimensions) {
        const key = `rubric:${r.name}@${r.hash}:${d.name}`;
        if (!seen.has(key)) seen.add(key), out.push({ key, label: `${r.name}: ${d.label ?? d.name}` });
      }
    }
  }
  return out;
}

/** A measure's value for an episode (mean over its seats for a seat measure), or for one seat of it. */
function valueOf(m: EpisodeMetrics, key: string, seat?: string): number | null {
  if (key.startsWith('rubric:')) {
    const [, ref, dim] = /^rubric:(.+):([^:]+)$/.exec(key)!;
    const j = m.otherRubrics.find((x) => `${x.info.rubric!.name}@${x.info.rubric!.hash}` === ref) ?? null;
    if (seat === undefined) return rubricEpisodeScore(m, dim!, j);
    const s = j?.seats[seat];
    return s?.ok ? (s.scores[dim!] ?? null) : null;
  }
  if (seat === undefined) return metricValue(m, key as (typeof ALL_METRICS)[number]);
  if (SEAT_RULES.has(key)) {
    const sm = m.seats.find((s) => s.seat === seat);
    return sm ? ((sm as unknown as Record<string, number | null>)[key] ?? null) : null;
  }
  if (!m.judge || !isSotopia(m.judge.info.rubric)) return null;
  const s = m.judge.seats[seat];
  return s?.ok ? (s.scores[key] ?? null) : null;
}

/** A unit of pairing: its key and the value of any measure. */
interface Unit {
  key: string;
  mode: string;
  value: (measure: string) => number | null;
}

function unitsOf(metrics: readonly EpisodeMetrics[], by: PairBy): Unit[] {
  const ok = metrics.filter((m) => m.status === 'ok');
  if (by === 'episode') return ok.map((m) => ({ key: JSON.stringify([m.scenarioId, m.pairId, m.mode, m.repeat]), mode: m.mode, value: (k) => valueOf(m, k) }));
  if (by === 'seat') return ok.flatMap((m) => m.seats.map((s) => ({ key: JSON.stringify([m.scenarioId, m.pairId, m.mode, m.repeat, s.seat]), mode: m.mode, value: (k: string) => valueOf(m, k, s.seat) })));
  const groups = new Map<string, EpisodeMetrics[]>();
  for (const m of ok) {
    const key = JSON.stringify([m.scenarioId, m.mode]);
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups].map(([key, ms]) => ({
    key,
    mode: ms[0]!.mode,
    value: (k) => {
      const vs = ms.map((m) => valueOf(m, k)).filter((v): v is number => v !== null);
      return vs.length ? mean(vs) : null;
    },
  }));
}

/** Compares run A with run B, pair by pair. */
export function pairedRuns(a: RunDir, b: RunDir, names: { a: string; b: string }, by: PairBy = 'episode', seed = 1): PairedComparison {
  const [ma, mb] = [runMetrics(a), runMetrics(b)];
  const [ua, ub] = [unitsOf(ma, by), unitsOf(mb, by)];
  const byKey = new Map(ub.map((u) => [u.key, u]));
  const pairs = ua.flatMap((u) => (byKey.has(u.key) ? [[u, byKey.get(u.key)!] as const] : []));
  const matchedKeys = new Set(pairs.map(([u]) => u.key));
  const modes = [...new Set(pairs.map(([u]) => u.mode))].sort((x, y) => ['script', 'agents', 'mindreaders'].indexOf(x) - ['script', 'agents', 'mindreaders'].indexOf(y));
  const groups: [string, typeof pairs][] = modes.map((mode) => [mode, pairs.filter(([u]) => u.mode === mode)]);
  if (modes.length > 1) groups.push(['all', pairs]);
  const rows: PairedRow[] = [];
  for (const measure of measuresOf([...ma, ...mb], by)) {
    for (const [mode, ps] of groups) {
      const both = ps.flatMap(([x, y]) => {
        const [vx, vy] = [x.value(measure.key), y.value(measure.key)];
        return vx !== null && vy !== null ? [[vx, vy] as const] : [];
      });
      if (!both.length) continue;
      rows.push({ mode, measure, meanA: mean(both.map((p) => p[0])), meanB: mean(both.map((p) => p[1])), diff: pairedDifference(both.map(([x, y]) => x - y), seed) });
    }
  }
  return {
    by,
    nameA: names.a,
    nameB: names.b,
    matched: Object.fromEntries(groups.map(([mode, ps]) => [mode, ps.length])),
    unmatchedA: ua.length - matchedKeys.size,
    unmatchedB: ub.filter((u) => !matchedKeys.has(u.key)).length,
    rows,
  };
}
