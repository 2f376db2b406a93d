import type { EpisodeRecord, Mode, Usage } from '../../protocol/index.js';
import { estimateTotalCost } from '../../llm/cost.js';

export interface ModeStats {
  episodes: number;
  ok: number;
  failed: number;
  /** Episodes with a task (MutualFriends, Craigslist) and how many succeeded. */
  task: { episodes: number; success: number; rate: number | null };
}

export interface RunStats {
  episodes: { total: number; ok: number; failed: number };
  byMode: Partial<Record<Mode, ModeStats>>;
  terminations: Record<string, number>;
  /** Crash recovery: seats re-established on a fresh agent process, and the episodes they belong to. */
  recoveries: { seats: number; episodes: number };
  /** Provider retries summed over every turn (and script). */
  retries: number;
  repairs: { lenient: number; reformat: number };
  /** Token usage by `provider:model`. */
  usage: Record<string, Usage & { calls: number }>;
  /** Estimated US$ cost of that usage from the editable price table (llm/prices.json or $PARLEY_PRICES). */
  cost: RunCost;
  /**
   * Calls answered from a recorded run's cassettes (a replay): the recorded usage and what it cost when
   * recorded. Not part of `usage` and `cost`, which count only what this run spent.
   */
  replayed?: { usage: Record<string, Usage & { calls: number }>; cost: RunCost };
}

/** Whether a seat's calls were answered from cassettes (seat `script` is the script writer). */
export type ReplayedSeat = (episodeId: string, seat: string) => boolean;

/** `usd` sums the priced models; `unpriced` lists models the table has no price for; `error` if the table is unreadable. */
export interface RunCost {
  usd: number | null;
  unpriced: string[];
  error?: string;
}

/** The run's estimated cost; a broken price table is reported, never fatal at the end of a run. */
function runCost(usage: RunStats['usage']): RunCost {
  const items = Object.entries(usage).map(([key, u]) => {
    const colon = key.indexOf(':');
    return { provider: key.slice(0, colon), model: key.slice(colon + 1), usage: u };
  });
  try {
    return estimateTotalCost(items);
  } catch (err) {
    return { usd: null, unpriced: [], error: (err as Error).message };
  }
}

/** Run statistics for run.json, computed from the records (so a resumed run counts everything). */
export function computeStats(records: readonly EpisodeRecord[], isReplayed?: ReplayedSeat): RunStats {
  const stats: RunStats = { episodes: { total: 0, ok: 0, failed: 0 }, byMode: {}, terminations: {}, recoveries: { seats: 0, episodes: 0 }, retries: 0, repairs: { lenient: 0, reformat: 0 }, usage: {}, cost: { usd: 0, unpriced: [] } };
  const replayedUsage: RunStats['usage'] = {};
  let episodeId = '';
  const addUsage = (provider: string | undefined, model: string | undefined, usage: Usage | undefined, seat: string) => {
    if (!usage) return;
    const key = `${provider ?? 'unknown'}:${model ?? 'unknown'}`;
    const into = isReplayed?.(episodeId, seat) ? replayedUsage : stats.usage;
    const u = (into[key] ??= { prompt: 0, completion: 0, cached: 0, calls: 0 });
    u.prompt += usage.prompt;
    u.completion += usage.completion;
    u.cached += usage.cached ?? 0;
    u.calls += 1;
  };
  for (const r of records) {
    episodeId = r.episodeId;
    stats.episodes.total += 1;
    stats.episodes[r.status] += 1;
    const m = (stats.byMode[r.mode] ??= { episodes: 0, ok: 0, failed: 0, task: { episodes: 0, success: 0, rate: null } });
    m.episodes += 1;
    m[r.status] += 1;
    if (r.outcome.kind !== 'open') {
      m.task.episodes += 1;
      if (r.outcome.success) m.task.success += 1;
    }
    stats.terminations[r.termination.reason] = (stats.terminations[r.termination.reason] ?? 0) + 1;
    if (r.recoveries?.length) {
      stats.recoveries.seats += r.recoveries.length;
      stats.recoveries.episodes += 1;
    }
    for (const t of r.turns) {
      stats.retries += t.retries ?? 0;
      stats.repairs.lenient += t.repairs?.lenient ?? 0;
      stats.repairs.reformat += t.repairs?.reformat ?? 0;
      if (r.mode !== 'script') addUsage(t.provider, t.model, t.usage, t.seat);
    }
    if (r.scriptWriter) {
      stats.retries += r.scriptWriter.retries ?? 0;
      stats.repairs.lenient += r.scriptWriter.repairs?.lenient ?? 0;
      stats.repairs.reformat += r.scriptWriter.repairs?.reformat ?? 0;
      addUsage(r.scriptWriter.provider, r.scriptWriter.model, r.scriptWriter.usage, 'script');
    }
  }
  for (const m of Object.values(stats.byMode)) m.task.rate = m.task.episodes ? m.task.success / m.task.episodes : null;
  stats.cost = runCost(stats.usage);
  if (isReplayed) stats.replayed = { usage: replayedUsage, cost: runCost(replayedUsage) };
  return stats;
}
