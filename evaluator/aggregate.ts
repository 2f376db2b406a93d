import type { Mode } from '../protocol/index.js';
import { DIMENSION_NAMES, type DimensionName } from './dimensions.js';
import { episodeScore, rubricEpisodeScore, type EpisodeMetrics } from './metrics/episode-metrics.js';
import { isSotopia } from './rubric/builtin.js';
import type { RubricRef } from './rubric/rubric.js';
import { pairedDifference, type PairedTest } from './stats/paired.js';
import { summarize, type Summary } from './stats/summary.js';

/**
 * Aggregation of episode metrics per mode × model pair × scenario subset. Each episode is one
 * observation (seat-level metrics are first averaged over the episode's seats), failed episodes are
 * excluded from every mean and counted in `failed`, and a metric that does not apply (no speech, friend
 * never named, open scenario) is missing for that episode rather than 0.
 */

export const RULE_METRICS = ['success', 'turns', 'wordsPerTurn', 'repetition', 'nonverbalShare', 'firstMention', 'mentioned', 'deal', 'sellerUtility'] as const;
export type RuleMetric = (typeof RULE_METRICS)[number];
export type MetricName = RuleMetric | DimensionName;
export const ALL_METRICS: readonly MetricName[] = [...RULE_METRICS, ...DIMENSION_NAMES];

/** Human labels for tables. */
export const METRIC_LABELS: Record<MetricName, string> = {
  success: 'success',
  turns: 'turns',
  wordsPerTurn: 'words/turn',
  repetition: 'repetition',
  nonverbalShare: 'non-verbal share',
  firstMention: 'first mention',
  mentioned: 'friend named',
  deal: 'deal rate',
  sellerUtility: 'seller utility',
  believability: 'believability',
  relationship: 'relationship',
  knowledge: 'knowledge',
  secret: 'secret',
  social_rules: 'social rules',
  financial_and_material_benefits: 'financial',
  goal: 'goal',
};

/** The value of a metric for one episode; null when it does not apply or cannot be computed. */
export function metricValue(m: EpisodeMetrics, name: MetricName): number | null {
  switch (name) {
    case 'success':
      return m.success === null ? null : Number(m.success);
    case 'turns':
      return m.moves;
    case 'wordsPerTurn':
      return m.wordsPerTurn;
    case 'repetition':
      return m.repetition;
    case 'nonverbalShare':
      return m.nonverbalShare;
    case 'firstMention':
      return m.mutualFriends?.firstMentionPosition ?? null;
    case 'mentioned':
      return m.mutualFriends ? Number(m.mutualFriends.firstMentionPosition !== null) : null;
    case 'deal':
      return m.craigslist ? Number(m.craigslist.effectiveDeal) : null;
    case 'sellerUtility':
      return m.craigslist?.sellerUtility ?? null;
    default:
      return episodeScore(m, name);
  }
}

/** The subsets an episode belongs to: always `all`, plus its scenario's subset tags. */
export function subsetsOf(m: EpisodeMetrics): string[] {
  return ['all', ...m.subsets.filter((s) => s !== 'all')];
}

export interface GroupRow {
  mode: Mode;
  models: string;
  subset: string;
  episodes: number;
  failed: number;
  /** Seats with judge scores / with a judge error. */
  judgedSeats: number;
  judgeErrors: number;
  metrics: Record<MetricName, Summary>;
  /**
   * Judge scores on rubrics other than SOTOPIA-EVAL (per episode the rubric's latest full-background
   * judgement, by rubric name and hash): kept apart from `metrics` and from each other, never averaged
   * across rubrics.
   */
  rubrics: RubricGroup[];
}

/** One rubric's scores within a group: its dimensions in the rubric's order. */
export interface RubricGroup {
  rubric: RubricRef;
  judgedSeats: number;
  judgeErrors: number;
  scores: Record<string, Summary>;
}

/** Summaries of every non-default rubric judged on the episodes (each episode's judgement per rubric: EpisodeMetrics.otherRubrics). */
function rubricGroups(ok: readonly EpisodeMetrics[], all: readonly EpisodeMetrics[], seed: number): RubricGroup[] {
  const byKey = new Map<string, { rubric: RubricRef; values: Map<string, number[]>; judged: number; errors: number }>();
  const okSet = new Set(ok);
  for (const m of all) {
    for (const j of m.otherRubrics) {
      const r = j.info.rubric!;
      const key = `${r.name}@${r.hash}`;
      let g = byKey.get(key);
      if (!g) byKey.set(key, (g = { rubric: r, values: new Map(), judged: 0, errors: 0 }));
      for (const s of Object.values(j.seats)) s.ok ? g.judged++ : g.errors++;
      if (!okSet.has(m)) continue;
      for (const d of r.dimensions) {
        const v = rubricEpisodeScore(m, d.name, j);
        if (v === null) continue;
        let list = g.values.get(d.name);
        if (!list) g.values.set(d.name, (list = []));
        list.push(v);
      }
    }
  }
  return [...byKey.values()].map((g) => ({
    rubric: g.rubric,
    judgedSeats: g.judged,
    judgeErrors: g.errors,
    scores: Object.fromEntries(g.rubric.dimensions.map((d) => [d.name, summarize(g.values.get(d.name) ?? [], seed)])),
  }));
}

const MODE_ORDER: Record<Mode, number> = { script: 0, agents: 1, mindreaders: 2 };

/** Groups episodes per mode × models × subset and summarises every metric. */
export function aggregate(all: readonly EpisodeMetrics[], seed = 1): GroupRow[] {
  const groups = new Map<string, { mode: Mode; models: string; subset: string; items: EpisodeMetrics[] }>();
  for (const m of all) {
    for (const subset of subsetsOf(m)) {
      const key = JSON.stringify([m.mode, m.models, subset]);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { mode: m.mode, models: m.models, subset, items: [] }));
      g.items.push(m);
    }
  }
  const rows: GroupRow[] = [];
  for (const g of groups.values()) {
    const ok = g.items.filter((m) => m.status === 'ok');
    let judgedSeats = 0;
    let judgeErrors = 0;
    for (const m of g.items) if (isSotopia(m.judge?.info.rubric)) for (const s of Object.values(m.judge?.seats ?? {})) s.ok ? judgedSeats++ : judgeErrors++;
    const metrics = Object.fromEntries(
      ALL_METRICS.map((name) => [name, summarize(ok.map((m) => metricValue(m, name)).filter((v): v is number => v !== null), seed)]),
    ) as Record<MetricName, Summary>;
    rows.push({ mode: g.mode, models: g.models, subset: g.subset, episodes: g.items.length, failed: g.items.length - ok.length, judgedSeats, judgeErrors, metrics, rubrics: rubricGroups(ok, g.items, seed) });
  }
  return rows.sort(
    (a, b) => (a.subset === 'all' ? -1 : 0) - (b.subset === 'all' ? -1 : 0) || a.subset.localeCompare(b.subset) || MODE_ORDER[a.mode] - MODE_ORDER[b.mode] || a.models.localeCompare(b.models),
  );
}

export interface GapRow {
  runId: string;
  subset: string;
  a: Mode;
  b: Mode;
  /** Generators of the two sides, e.g. `writer gpt-4` vs `gpt-4 × gpt-4`. */
  modelsA: string;
  modelsB: string;
  metrics: Partial<Record<MetricName, PairedTest>>;
}

/**
 * The a − b gap (e.g. script − agents) paired by (run, scenario, character pair, repeat): only keys with
 * an ok episode in both modes and a value for the metric in both enter the test.
 */
export function pairedGaps(all: readonly EpisodeMetrics[], a: Mode, b: Mode, seed = 1): GapRow[] {
  const byKey = new Map<string, { a?: EpisodeMetrics; b?: EpisodeMetrics }>();
  for (const m of all) {
    if (m.status !== 'ok' || (m.mode !== a && m.mode !== b)) continue;
    const key = JSON.stringify([m.runId, m.scenarioId, m.pairId, m.repeat]);
    const slot = byKey.get(key) ?? {};
    if (m.mode === a) slot.a ??= m;
    else slot.b ??= m;
    byKey.set(key, slot);
  }
  const groups = new Map<string, { runId: string; subset: string; pairs: [EpisodeMetrics, EpisodeMetrics][]; modelsA: Set<string>; modelsB: Set<string> }>();
  for (const slot of byKey.values()) {
    if (!slot.a || !slot.b) continue;
    for (const subset of subsetsOf(slot.a)) {
      const key = JSON.stringify([slot.a.runId, subset]);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { runId: slot.a.runId, subset, pairs: [], modelsA: new Set(), modelsB: new Set() }));
      g.pairs.push([slot.a, slot.b]);
      g.modelsA.add(slot.a.models);
      g.modelsB.add(slot.b.models);
    }
  }
  const rows: GapRow[] = [];
  for (const g of groups.values()) {
    const metrics: GapRow['metrics'] = {};
    for (const name of ALL_METRICS) {
      const diffs: number[] = [];
      for (const [x, y] of g.pairs) {
        const vx = metricValue(x, name);
        const vy = metricValue(y, name);
        if (vx !== null && vy !== null) diffs.push(vx - vy);
      }
      if (diffs.length) metrics[name] = pairedDifference(diffs, seed);
    }
    rows.push({ runId: g.runId, subset: g.subset, a, b, modelsA: [...g.modelsA].join(', '), modelsB: [...g.modelsB].join(', '), metrics });
  }
  return rows.sort((x, y) => x.runId.localeCompare(y.runId) || (x.subset === 'all' ? -1 : y.subset === 'all' ? 1 : x.subset.localeCompare(y.subset)));
}
