import type { EpisodeRecord } from '../protocol/index.js';
import type { RunLock } from './lock.js';
import { readRunJson, writeRunJson } from './run-json.js';

/**
 * run.json's `stats.formatFallbacks.judge`: judge calls answered below the configured structured-output
 * rung (the server rejected `response_format`), summed over every judge variant of every record. Counted
 * from the records by the run's stats and by `eval` alike, so neither overwrites the other's count.
 */
export function judgeFormatFallbacks(records: readonly EpisodeRecord[]): number {
  let n = 0;
  for (const r of records) {
    const ev = r.evaluation;
    if (!ev) continue;
    const judgements = ev.variants ? Object.values(ev.variants) : ev.judge ? [ev.judge] : [];
    for (const j of judgements) n += j.formatFallbacks ?? 0;
  }
  return n;
}

/** After `eval`: run.json's judge fallback count brought up to date (a run that has not ended has no stats yet). */
export function recordJudgeFormatFallbacks(lock: RunLock, records: readonly EpisodeRecord[]): void {
  const read = readRunJson(lock.paths);
  if (!read.ok || !read.run?.stats) return;
  const { stats } = read.run;
  writeRunJson(lock, { ...read.run, stats: { ...stats, formatFallbacks: { ...stats.formatFallbacks, judge: judgeFormatFallbacks(records) } } });
}
