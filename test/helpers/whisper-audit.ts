import { contentWords, stringsIn } from './secret-runs.js';

/** What the whisper audit reads of an episode record: its turns, with a private move's `to`. */
export interface WhisperTurn { turn: number; seat: string; action: { type: string; argument: string; to?: string[] } | null; to?: string[] }

interface LedgerFrame { type: string; turn?: number; seat?: string; action?: { argument?: string; to?: string[] } }

/**
 * The private-move part of the leak audit (issue 39), for one episode from its record and ledgers:
 * - every seat a private move names in `to` (speaker and recipients) holds its `turn.event`, marked private
 *   (`action.to` as the speaker addressed it);
 * - every other seat's ledger holds no frame of that turn and no word of it: none of the whisper's content
 *   words that the seat could not have from elsewhere (the episode's public moves, whispers addressed to
 *   it, its welcome and partner states) appears anywhere in its ledger, and neither does the text.
 * Returns the violations and how many (whisper, non-recipient) pairs were proven, so a pass is not vacuous.
 */
export function auditWhispers(where: string, turns: readonly WhisperTurn[], ledgers: ReadonlyMap<string, string[]>): { violations: string[]; proven: number; delivered: number } {
  const violations: string[] = [];
  let proven = 0;
  let delivered = 0;
  const whispers = turns.filter((t) => t.action?.to !== undefined);
  if (whispers.length === 0) return { violations, proven, delivered };
  const publicWords = new Set(turns.filter((t) => t.action && t.action.to === undefined).flatMap((t) => contentWords(t.action!.argument)));
  for (const w of whispers) {
    const receivers = new Set(w.to ?? []);
    if (!receivers.has(w.seat) || !w.action!.to!.every((s) => receivers.has(s))) violations.push(`${where} turn ${w.turn}: record's to ${JSON.stringify(w.to)} does not hold its speaker and recipients`);
    for (const [seat, lines] of ledgers) {
      const frames = lines.map((l) => JSON.parse(l) as LedgerFrame);
      const event = frames.find((f) => f.type === 'turn.event' && f.turn === w.turn);
      if (receivers.has(seat)) {
        if (!event || JSON.stringify(event.action?.to) !== JSON.stringify(w.action!.to)) violations.push(`${where}/${seat}: private move of turn ${w.turn} not held marked private (action.to)`);
        else delivered += 1;
        continue;
      }
      if (event) violations.push(`${where}/${seat}: holds turn ${w.turn}, a private move to ${w.action!.to!.join(',')}`);
      // Words the seat may hold anyway: said in public, whispered to it, or in what it was told of the scenario.
      const mine = frames.filter((f) => f.type === 'seat.welcome' || f.type === 'peer.state').flatMap((f) => stringsIn(f));
      const toIt = whispers.filter((o) => o.to?.includes(seat)).map((o) => o.action!.argument);
      const allowed = new Set([...publicWords, ...[...mine, ...toIt].flatMap((t) => contentWords(t))]);
      const own = contentWords(w.action!.argument).filter((word) => !allowed.has(word));
      const held = new Set(lines.flatMap((l) => contentWords(stringsIn(JSON.parse(l)).join(' '))));
      const reached = own.filter((word) => held.has(word));
      if (reached.length) violations.push(`${where}/${seat}: words of the private move of turn ${w.turn} reached a non-recipient: ${[...new Set(reached)].join(', ')}`);
      else if (w.action!.argument.trim() && lines.some((l) => l.includes(JSON.stringify(w.action!.argument).slice(1, -1)))) violations.push(`${where}/${seat}: the private move of turn ${w.turn} reached a non-recipient verbatim`);
      else proven += 1;
    }
  }
  return { violations, proven, delivered };
}
