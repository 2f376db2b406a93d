/**
 * `parley fork --at`: one fork turn (`4`), several (`2,4,6`), or `all` (every turn from 0 to the last the
 * parent played). Checked against the parent episode before anything else is.
 */
export type ForkTurns = { ok: true; turns: number[] } | { ok: false; message: string };

/**
 * Parses `--at` for an episode with `played` replayable turns (`0 … played-1`). A fork turn may be at
 * most `played` (replay everything, then play on: with a higher `--max-turns`, say). `all` is `0 … played`;
 * the turns that cannot be continued are dropped from it later, with the others kept.
 */
export function parseForkTurns(text: string, played: number, episodeId: string): ForkTurns {
  const trimmed = text.trim();
  if (trimmed === 'all') return { ok: true, turns: Array.from({ length: played + 1 }, (_, t) => t) };
  const parts = trimmed.split(',').map((s) => s.trim()).filter(Boolean);
  if (!parts.length) return { ok: false, message: `--at needs a turn, a list of turns (2,4,6) or all` };
  const turns: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,6}$/.test(p)) return { ok: false, message: `--at: '${p.slice(0, 40)}' is not a turn number (0, 1, 2, …)` };
    const t = Number(p);
    if (t > played) {
      return { ok: false, message: `fork turn ${t} is past the end of episode ${episodeId}: it played ${played} turn(s) (0–${Math.max(0, played - 1)}), so a fork turn goes from 0 to ${played}` };
    }
    turns.push(t);
  }
  return { ok: true, turns: [...new Set(turns)].sort((a, b) => a - b) };
}
