import type { EpisodeRecord } from '../../protocol/index.js';

/**
 * One progress line per finished episode: position, status, mode, scenario, why it ended, size, time.
 * `scenario` is how a reader knows the scenario: its codename when it has one (SOTOPIA ids are ULIDs).
 */
export function formatProgress(done: number, total: number, r: EpisodeRecord, scenario: string = r.scenarioId): string {
  const width = String(total).length;
  const end = r.termination.detail && r.termination.reason !== 'disconnect' && r.termination.reason !== 'aborted'
    ? `${r.termination.reason}(${r.termination.detail})`
    : r.termination.reason;
  // A game has no success, only a winning side (already in the termination's detail).
  const task = r.outcome.kind === 'open' || r.outcome.kind === 'game' ? '' : r.outcome.success ? ' success' : ' no-success';
  const why = r.status === 'failed' && r.errors[0] ? ` — ${r.errors[0].code}: ${r.errors[0].message}` : '';
  return `[${String(done).padStart(width)}/${total}] ${r.status.padEnd(6)} ${r.mode.padEnd(11)} ${scenario} ${end}${task} ${r.turns.length} turns ${(r.durationMs / 1000).toFixed(1)}s${why}`;
}
