import { ForkProvenance } from '../../protocol/index.js';
import { METRIC_LABELS, metricValue, type MetricName } from '../aggregate.js';
import { DIMENSION_NAMES } from '../dimensions.js';
import { episodeMetrics, type EpisodeMetrics } from '../metrics/episode-metrics.js';
import type { RunDir } from '../run-dir.js';
import { summarize, type Summary } from '../stats/summary.js';
import { runProtocol } from '../run-protocol.js';

/**
 * `parley report F --parent R`: the forks of a fork run (`parley fork`) beside the parent episode's own
 * continuation, per fork turn. From turn t on, the parent's continuation is the parent episode itself: one
 * observation, no interval. The forks' means carry a 95% bootstrap CI over the forks at that turn, and the
 * effect (forks − parent) carries the same interval shifted by the parent's value.
 */

/** One metric at one fork turn. */
export interface ForkCell {
  forks: Summary;
  /** The parent episode's value (null: the metric does not apply to it, or it was not judged). */
  parent: number | null;
  /** Forks − parent, with the forks' CI shifted (null when the parent has no value). */
  effect: Summary | null;
}

export interface ForkRow {
  at: number;
  episodes: number;
  failed: number;
  cells: Record<string, ForkCell>;
}

export interface ForkComparison {
  parentRun: string;
  parentEpisode: string;
  parentStatus: 'ok' | 'failed';
  /** Metrics shown, in order, with their labels: rule metrics, judge dimensions, and each seat's goal. */
  metrics: Array<{ key: string; label: string }>;
  rows: ForkRow[];
  /** What the forks changed from the parent run's settings (`agent2: openai:a → openai:b`, reveals, limits). */
  changes: string[];
  /** Forks were judged but the parent episode was not: its judge cells are empty until `parley eval` scores it. */
  parentNeedsEval: boolean;
}

export type ForkComparisonResult = { ok: true; comparison: ForkComparison } | { ok: false; message: string };

/** Rule metrics every fork row shows; judge dimensions are added when any fork or the parent was judged. */
const RULE_METRICS: MetricName[] = ['success', 'turns', 'wordsPerTurn', 'deal'];

function metricsOf(run: RunDir, record: RunDir['episodes'][number]['record']): EpisodeMetrics {
  return episodeMetrics(record, run.scenarios.get(record.scenarioId), { mutualFriendsSuccess: runProtocol(run).scoring.mutualFriendsSuccess });
}

/** A metric of one episode by key: a MetricName, or `goal:<seat>` (one seat's goal score). */
function valueOf(m: EpisodeMetrics, key: string): number | null {
  if (key.startsWith('goal:')) {
    const s = m.judge?.seats[key.slice(5)];
    return s?.ok ? (s.scores.goal ?? null) : null;
  }
  return metricValue(m, key as MetricName);
}

/**
 * Compares the forks in `forks` with their parent episode in `parent`. Refused (a message) when `forks`
 * holds no fork of an episode of `parent`, or forks of several parent episodes or of another run.
 */
export function compareForks(forks: RunDir, parent: RunDir, seed = 1): ForkComparisonResult {
  const provenance = forks.episodes.map((e) => ({ e, fork: ForkProvenance.safeParse(e.record.fork) }));
  const forked = provenance.filter((p) => p.fork.success && p.e.record.fork);
  if (!forked.length) return { ok: false, message: `${forks.dir} holds no forked episode (make one with parley fork)` };
  const parentRunId = parent.run?.runId;
  const runs = [...new Set(forked.map((p) => p.e.record.fork!.parentRun))];
  if (runs.length !== 1 || (parentRunId !== undefined && runs[0] !== parentRunId)) {
    return { ok: false, message: `the forks in ${forks.dir} come from run ${runs.join(', ')}, not from ${parent.dir} (run ${parentRunId ?? '?'})` };
  }
  const episodes = [...new Set(forked.map((p) => p.e.record.fork!.parentEpisode))];
  if (episodes.length !== 1) return { ok: false, message: `${forks.dir} forks ${episodes.length} parent episodes; compare one at a time` };
  const parentRow = parent.episodes.find((e) => e.record.episodeId === episodes[0]);
  if (!parentRow) return { ok: false, message: `${parent.dir} has no episode ${JSON.stringify(episodes[0]!.slice(0, 120))}, the forks' parent` };
  const parentMetrics = metricsOf(parent, parentRow.record);
  const forkMetrics = forked.map((p) => ({ at: p.e.record.fork!.at, m: metricsOf(forks, p.e.record) }));
  const all = [parentMetrics, ...forkMetrics.map((f) => f.m)];
  const judged = all.some((m) => m.judge);
  const seats = parentRow.record.seats.map((s) => s.seat);
  const keys: string[] = [...RULE_METRICS, ...(judged ? [...DIMENSION_NAMES, ...seats.map((s) => `goal:${s}`)] : [])];
  // A metric no episode has (deal rate outside Craigslist, say) is left out.
  const shown = keys.filter((k) => all.some((m) => m.status === 'ok' && valueOf(m, k) !== null));
  const metrics = shown.map((key) => ({ key, label: key.startsWith('goal:') ? `goal (${key.slice(5)})` : METRIC_LABELS[key as MetricName] }));
  const turns = [...new Set(forkMetrics.map((f) => f.at))].sort((a, b) => a - b);
  const rows: ForkRow[] = turns.map((at) => {
    const here = forkMetrics.filter((f) => f.at === at).map((f) => f.m);
    const ok = here.filter((m) => m.status === 'ok');
    const cells: Record<string, ForkCell> = {};
    for (const { key } of metrics) {
      const values = ok.map((m) => valueOf(m, key)).filter((v): v is number => v !== null);
      const p = parentMetrics.status === 'ok' ? valueOf(parentMetrics, key) : null;
      cells[key] = { forks: summarize(values, seed), parent: p, effect: p === null ? null : summarize(values.map((v) => v - p), seed) };
    }
    return { at, episodes: here.length, failed: here.length - ok.length, cells };
  });
  const parentNeedsEval = parentRow.record.status === 'ok' && !parentMetrics.judge && forkMetrics.some((f) => f.m.judge);
  return { ok: true, comparison: { parentRun: runs[0]!, parentEpisode: episodes[0]!, parentStatus: parentRow.record.status, metrics, rows, changes: changesFrom(parent, forks, seats), parentNeedsEval } };
}

/** The settings a fork run changed from its parent's, as recorded in both run.json files (read loosely: untrusted). */
export function changesFrom(parent: RunDir, forks: RunDir, seats: readonly string[]): string[] {
  const a = (parent.run?.config ?? {}) as Record<string, unknown>;
  const b = (forks.run?.config ?? {}) as Record<string, unknown>;
  const out: string[] = [];
  const policy = (c: Record<string, unknown>, i: number) => {
    const agents = Array.isArray(c.agents) ? (c.agents as Array<{ spec?: unknown; params?: unknown }>) : [];
    const p = agents[Math.min(i, agents.length - 1)];
    return p ? `${String(p.spec)}${p.params && Object.keys(p.params).length ? ` ${JSON.stringify(p.params)}` : ''}` : '?';
  };
  seats.forEach((seat, i) => {
    if (policy(a, i) !== policy(b, i)) out.push(`${seat}: ${policy(a, i)} → ${policy(b, i)}`);
  });
  for (const k of ['maxTurns', 'turnDeadlineMs', 'stopRule', 'onUnparsable', 'onProviderError']) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k]) && b[k] !== undefined) out.push(`${k}: ${JSON.stringify(a[k] ?? null)} → ${JSON.stringify(b[k])}`);
  }
  const reveal = (b.fork as { reveal?: unknown } | undefined)?.reveal;
  if (Array.isArray(reveal) && reveal.length) out.push(`reveal at t: ${reveal.map(String).join(', ')}`);
  return out;
}
