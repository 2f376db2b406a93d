import type { Mode } from '../protocol/index.js';
import type { SourceEpisode } from './source.js';

/** Which recorded (episode, seat) pairs become training data: the recipes' filters. */
export interface Selection {
  modes?: readonly Mode[];
  /** A model name (`gpt-3.5-turbo`) or `provider:model`; for script episodes, the script writer's. */
  models?: readonly string[];
  /** Scenario subsets (a scenario in any of them). */
  subsets?: readonly string[];
  seats?: readonly string[];
  /** Keep a seat only when its judge score on each named dimension is at least the value (`goal=7`). */
  min?: Readonly<Record<string, number>>;
  /** SOTOPIA-π's self-reinforcement: per scenario and seat, the K best episodes by the seat's score on `by`. */
  top?: { k: number; by: string };
}

/** One seat of one episode: the unit examples are made of. */
export interface Unit {
  source: SourceEpisode;
  seat: string;
}

/** Why a unit was left out; every reason is counted, none is silent. */
export const EXCLUSION = {
  errors: 'episode has errors',
  notEvaluated: 'episode not evaluated',
  evaluationError: 'seat evaluation failed',
  noScenario: 'scenario not in the run directory',
  mode: 'other mode',
  model: 'other model',
  subset: 'other subset',
  seat: 'other seat',
  belowMin: 'score below --min',
  notTop: 'not in --top-per-scenario',
} as const;
export type ExclusionReason = keyof typeof EXCLUSION;

export interface SelectionResult {
  units: Unit[];
  /** (episode, seat) pairs left out, by reason (the first reason that applied). */
  excluded: Partial<Record<ExclusionReason, number>>;
  /** Episodes left out entirely for errors or for lacking an evaluation the selection needs. */
  excludedEpisodes: { errors: number; notEvaluated: number };
}

/** True when the episode ran cleanly: status ok, no episode error, no failed turn. */
export function episodeClean(e: SourceEpisode['record']): boolean {
  return e.status === 'ok' && e.errors.length === 0 && e.turns.every((t) => !t.error && t.action !== null);
}

function modelsOf(e: SourceEpisode['record'], seat: string): string[] {
  const who = e.mode === 'script' ? e.scriptWriter : e.seats.find((s) => s.seat === seat);
  if (!who) return [];
  const out = [who.policy];
  if (who.model) out.push(who.model, `${who.provider ?? ''}:${who.model}`);
  return out;
}

/** The seat's score on a dimension, or why there is none. */
function scoreOf(source: SourceEpisode, seat: string, dim: string): number | 'notEvaluated' | 'evaluationError' {
  if (!source.scores) return 'notEvaluated';
  const s = source.scores[seat];
  if (!s || !s.ok) return 'evaluationError';
  const v = s.scores[dim];
  return typeof v === 'number' ? v : 'evaluationError';
}

/**
 * Applies the filters in a fixed order and counts every exclusion. Episodes with errors are always
 * excluded; an episode without evaluation only when the selection needs scores (`min`, `top`).
 */
export function selectUnits(sources: readonly SourceEpisode[], sel: Selection): SelectionResult {
  const excluded: SelectionResult['excluded'] = {};
  const excludedEpisodes = { errors: 0, notEvaluated: 0 };
  const drop = (reason: ExclusionReason, n = 1) => void (excluded[reason] = (excluded[reason] ?? 0) + n);
  const needsScores = Object.keys(sel.min ?? {}).length > 0 || sel.top !== undefined;
  const dims = [...Object.keys(sel.min ?? {}), ...(sel.top ? [sel.top.by] : [])];
  const kept: Array<Unit & { rank: number }> = [];
  for (const source of sources) {
    const e = source.record;
    const seats = e.seats.map((s) => s.seat);
    if (!episodeClean(e)) {
      excludedEpisodes.errors++;
      drop('errors', seats.length);
      continue;
    }
    if (needsScores && !source.scores) {
      excludedEpisodes.notEvaluated++;
      drop('notEvaluated', seats.length);
      continue;
    }
    for (const seat of seats) {
      if (sel.modes?.length && !sel.modes.includes(e.mode)) { drop('mode'); continue; }
      if (sel.models?.length && !modelsOf(e, seat).some((m) => sel.models!.includes(m))) { drop('model'); continue; }
      if (sel.seats?.length && !sel.seats.includes(seat)) { drop('seat'); continue; }
      if (!source.scenario && (e.mode === 'script' || sel.subsets?.length)) { drop('noScenario'); continue; }
      if (sel.subsets?.length && !source.scenario!.subsets.some((s) => sel.subsets!.includes(s))) { drop('subset'); continue; }
      const scores = dims.map((d) => scoreOf(source, seat, d));
      const missing = scores.find((s): s is 'notEvaluated' | 'evaluationError' => typeof s === 'string');
      if (missing) { drop(missing); continue; }
      const minOk = Object.entries(sel.min ?? {}).every(([dim, v]) => (scoreOf(source, seat, dim) as number) >= v);
      if (!minOk) { drop('belowMin'); continue; }
      kept.push({ source, seat, rank: sel.top ? (scoreOf(source, seat, sel.top.by) as number) : 0 });
    }
  }
  if (!sel.top) return { units: kept.map(({ source, seat }) => ({ source, seat })), excluded, excludedEpisodes };
  // Per scenario and seat: best score first, ties broken by episode id so the choice is reproducible.
  const groups = new Map<string, Array<Unit & { rank: number }>>();
  for (const u of kept) {
    const key = `${u.source.record.scenarioId}\u0000${u.seat}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(u);
  }
  const top = new Set<Unit>();
  for (const group of groups.values()) {
    group.sort((a, b) => b.rank - a.rank || a.source.record.episodeId.localeCompare(b.source.record.episodeId));
    for (const u of group.slice(0, sel.top.k)) top.add(u);
  }
  drop('notTop', kept.length - top.size);
  if (excluded.notTop === 0) delete excluded.notTop;
  return { units: kept.filter((u) => top.has(u)).map(({ source, seat }) => ({ source, seat })), excluded, excludedEpisodes };
}
