import { MODES, type EpisodeRecord } from '../../protocol/index.js';
import { drawCountLines, drawCounts } from '../../run-dir/index.js';

const pct = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : 'n/a');

/** Under the `first-valid` selection (any record marked): per mode and models, the draws the counted episodes took. */
export function selectionLines(records: readonly EpisodeRecord[]): string[] {
  if (!records.some((r) => r.selection)) return [];
  return ['selection first-valid (every draw kept in episodes.jsonl, marked counted or superseded):', ...drawCountLines(drawCounts(records)).map((l) => `  ${l}`)];
}

/** Games: how many each side won (`games won: wolves 3, village 2`), and those without a winner. */
function gameWinners(rs: readonly EpisodeRecord[]): string {
  const games = rs.filter((r) => r.game);
  if (!games.length) return '';
  const wins = new Map<string, number>();
  for (const r of games) wins.set(r.game!.winner ?? 'no winner', (wins.get(r.game!.winner ?? 'no winner') ?? 0) + 1);
  return `games won: ${[...wins].sort(([a], [b]) => a.localeCompare(b)).map(([side, n]) => `${side} ${n}`).join(', ')}`;
}

/**
 * The end-of-run table: per mode, the number of episodes (ok / failed) and the task success rate —
 * MutualFriends: every seat selected the shared friend; Craigslist: a deal was reached — overall and by task.
 */
export function summaryLines(records: readonly EpisodeRecord[]): string[] {
  const lines: string[] = [];
  for (const mode of MODES) {
    const rs = records.filter((r) => r.mode === mode);
    if (!rs.length) continue;
    const failed = rs.filter((r) => r.status === 'failed').length;
    const tasks = rs.filter((r) => r.outcome.kind !== 'open' && r.outcome.kind !== 'game');
    const wins = tasks.filter((r) => r.outcome.success === true).length;
    const byKind = (['mutual_friends', 'craigslist'] as const)
      .map((kind) => {
        const k = rs.filter((r) => r.outcome.kind === kind);
        if (!k.length) return null;
        const label = kind === 'mutual_friends' ? 'MutualFriends' : 'Craigslist deal';
        return `${label} ${k.filter((r) => r.outcome.success === true).length}/${k.length}`;
      })
      .filter(Boolean);
    const success = tasks.length ? `task success ${pct(wins, tasks.length)} (${wins}/${tasks.length}${byKind.length ? `; ${byKind.join(', ')}` : ''})` : '';
    lines.push(`${mode.padEnd(12)} ${String(rs.length).padStart(4)} episodes (${rs.length - failed} ok, ${failed} failed)  ` + [success, gameWinners(rs)].filter(Boolean).join('; '));
  }
  return lines;
}
