import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface GameTurn { turn: number; seat: string; action: { type: string; argument: string } | null; to?: string[]; phase?: string }
interface GameEpisode { episodeId: string; mode: string; turns: GameTurn[]; game?: { roles: Record<string, string>; teams: Record<string, string> } }
interface Frame { type: string; to?: string[]; text?: string; fact?: { kind: string }; self?: { seat: string; task: { kind: string } | null }; seat?: string }

const readJsonl = <T>(file: string): T[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * The leak audit of hidden-role games (issue 39), from the run directory alone: a move sent to some seats
 * only (a team channel, a night move, a secret ballot) is in no other seat's ledger, word for word; a
 * notice addressed to one seat (an inspection's result) is in that seat's ledger only; in agents mode no
 * seat's frames hold another seat's game card. Counts show the audit was not vacuous.
 */
export function auditGames(dir: string): { violations: string[]; checked: { teamMessages: number; privateMoves: number; privateNotices: number } } {
  const violations: string[] = [];
  const checked = { teamMessages: 0, privateMoves: 0, privateNotices: 0 };
  for (const ep of readJsonl<GameEpisode>(join(dir, 'episodes.jsonl'))) {
    if (!ep.game || ep.mode === 'script') continue;
    const seats = Object.keys(ep.game.roles);
    const ledgers = new Map(seats.map((s) => {
      const file = join(dir, 'ledgers', ep.episodeId, `${s}.jsonl`);
      return [s, existsSync(file) ? readFileSync(file, 'utf8') : ''] as const;
    }));
    for (const t of ep.turns) {
      if (!t.to || !t.action) continue;
      // Team messages and moves carry the round ("Round 2, between us: …") or a target; search their exact text.
      const mark = inJson(t.action.argument);
      if (mark.trim() === '') continue;
      if (t.to.length > 1) checked.teamMessages += 1;
      else checked.privateMoves += 1;
      for (const s of seats) {
        if (t.to.includes(s)) continue;
        if (ledgers.get(s)!.includes(`"turn":${t.turn},"seat":"${t.seat}"`)) violations.push(`${ep.episodeId}/${s}: received turn ${t.turn}, sent only to ${t.to.join(', ')}`);
        // The same words may be another move too ("vote agent2" is many seats' ballot): a seat may hold them
        // only if some move with these words was sent to it.
        const sentTo = ep.turns.filter((o) => o.action?.argument === t.action!.argument).flatMap((o) => o.to ?? seats);
        if (!sentTo.includes(s) && ledgers.get(s)!.includes(mark)) violations.push(`${ep.episodeId}/${s}: holds "${t.action.argument}", sent only to ${t.to.join(', ')}`);
      }
    }
    for (const s of seats) {
      const frames = ledgers.get(s)!.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Frame);
      for (const f of frames) {
        if (f.type === 'game.notice' && f.to) {
          if (f.to.length !== 1 || f.to[0] !== s) violations.push(`${ep.episodeId}/${s}: a notice addressed to ${f.to.join(', ')}`);
          checked.privateNotices += 1;
          for (const other of seats.filter((o) => o !== s)) {
            if (ledgers.get(other)!.includes(inJson(f.text!))) violations.push(`${ep.episodeId}/${other}: holds ${s}'s private notice "${f.text}"`);
          }
        }
        if (ep.mode === 'agents' && f.type === 'peer.state') violations.push(`${ep.episodeId}/${s}: a peer.state in agents mode`);
        if (f.type === 'seat.welcome' && f.self?.seat !== s) violations.push(`${ep.episodeId}/${s}: a welcome for another seat`);
      }
    }
  }
  return { violations, checked };
}
