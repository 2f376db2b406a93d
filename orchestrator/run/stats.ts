import { splitModelKey, type EpisodeRecord, type Usage } from '../../protocol/index.js';
import { estimateTotalCost } from '../../llm/cost.js';
import { judgeFormatFallbacks, type RunCost, type RunStats } from '../../run-dir/index.js';

/** Whether a seat's calls were answered from cassettes (seat `script` is the script writer). */
export type ReplayedSeat = (episodeId: string, seat: string) => boolean;

/** The run's estimated cost; a broken price table is reported, never fatal at the end of a run. */
function runCost(usage: RunStats['usage']): RunCost {
  const items = Object.entries(usage).map(([key, u]) => {
    return { ...splitModelKey(key), usage: u };
  });
  try {
    return estimateTotalCost(items);
  } catch (err) {
    return { usd: null, unpriced: [], error: (err as Error).message };
  }
}

/** Run statistics for run.json, computed from the records (so a resumed run counts everything). */
export function computeStats(records: readonly EpisodeRecord[], isReplayed?: ReplayedSeat): RunStats {
  const stats: RunStats = { episodes: { total: 0, ok: 0, failed: 0 }, byMode: {}, terminations: {}, recoveries: { seats: 0, episodes: 0 }, retries: 0, repairs: { lenient: 0, reformat: 0 }, formatFallbacks: { rejected: 0, jsonMode: 0, prompt: 0, judge: judgeFormatFallbacks(records) }, unparsableTurns: 0, unparsableScripts: 0, providerErrorTurns: 0, providerErrorScripts: 0, usage: {}, cost: { usd: 0, unpriced: [] } };
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
  const addFallbacks = (f: { rejected: number; jsonMode: number; prompt: number } | undefined) => {
    if (!f) return;
    stats.formatFallbacks.rejected += f.rejected;
    stats.formatFallbacks.jsonMode += f.jsonMode;
    stats.formatFallbacks.prompt += f.prompt;
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
    // Usage a remote agent reported about itself stays out of the cost unless the run trusted it.
    const unverified = new Set(r.seats.filter((s) => s.provenance === 'reported').map((s) => s.seat));
    for (const t of r.turns) {
      // A fork's replayed turns were paid for (and counted) by its parent run: nothing was called here.
      if (r.fork && t.turn < r.fork.at) continue;
      stats.retries += t.retries ?? 0;
      stats.repairs.lenient += t.repairs?.lenient ?? 0;
      stats.repairs.reformat += t.repairs?.reformat ?? 0;
      addFallbacks(t.fallbacks);
      if (t.unparsable) stats.unparsableTurns += 1;
      if (t.providerError) stats.providerErrorTurns += 1;
      if (r.mode !== 'script' && !unverified.has(t.seat)) addUsage(t.provider, t.model, t.usage, t.seat);
    }
    if (r.scriptWriter) {
      stats.retries += r.scriptWriter.retries ?? 0;
      stats.repairs.lenient += r.scriptWriter.repairs?.lenient ?? 0;
      stats.repairs.reformat += r.scriptWriter.repairs?.reformat ?? 0;
      addFallbacks(r.scriptWriter.fallbacks);
      if (r.scriptWriter.unparsable) stats.unparsableScripts += 1;
      if (r.scriptWriter.providerError) stats.providerErrorScripts += 1;
      addUsage(r.scriptWriter.provider, r.scriptWriter.model, r.scriptWriter.usage, 'script');
    }
  }
  for (const m of Object.values(stats.byMode)) m.task.rate = m.task.episodes ? m.task.success / m.task.episodes : null;
  stats.cost = runCost(stats.usage);
  if (isReplayed) stats.replayed = { usage: replayedUsage, cost: runCost(replayedUsage) };
  return stats;
}
