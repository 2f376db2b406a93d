import type { TurnRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';

/** Seats that have left the episode (a `leave` move); they are asked for no more turns. */
export function seatsThatLeft(turns: readonly TurnRecord[]): Set<string> {
  return new Set(turns.filter((t) => t.action?.type === 'leave').map((t) => t.seat));
}

/**
 * Who speaks after `turns`. Round robin in seat order, skipping seats that left — for two seats this is
 * the alternation SOTOPIA runs, since the episode ends at the first leave. Under `speaker_names_next` the
 * last speaker hands the floor to the participant it named last (scenarios/model.ts TurnOrder), else
 * round robin. Null when nobody is left to speak.
 */
export function nextSpeaker(scenario: Scenario, turns: readonly TurnRecord[]): string | null {
  const order = scenario.seats.map((s) => s.seat);
  const left = seatsThatLeft(turns);
  const present = order.filter((s) => !left.has(s));
  if (present.length === 0) return null;
  const last = turns[turns.length - 1];
  if (!last) return present[0]!;
  if (scenario.turnOrder === 'speaker_names_next') {
    const named = addressed(scenario, last, present);
    if (named) return named;
  }
  const from = order.indexOf(last.seat);
  for (let step = 1; step <= order.length; step++) {
    const seat = order[(from + step) % order.length]!;
    if (!left.has(seat)) return seat;
  }
  return null;
}

/**
 * The present participant (not the speaker) whose name the move mentions last, if any. A private move
 * hands the floor only to one of its recipients: who speaks next must not depend on words a non-recipient
 * never received (it then gets the floor by round robin, as if nobody had been named).
 */
function addressed(scenario: Scenario, turn: TurnRecord, present: readonly string[]): string | null {
  if (!turn.action || (turn.action.type !== 'speak' && turn.action.type !== 'non-verbal communication')) return null;
  const text = turn.action.argument.toLowerCase();
  const to = turn.action.to;
  let best: { seat: string; at: number } | null = null;
  for (const s of scenario.seats) {
    if (s.seat === turn.seat || !present.includes(s.seat) || (to && !to.includes(s.seat))) continue;
    for (const name of [s.character.name, s.character.firstName].filter((n): n is string => !!n && n.trim().length > 0)) {
      const at = lastWordAt(text, name.toLowerCase());
      if (at >= 0 && (!best || at > best.at)) best = { seat: s.seat, at };
    }
  }
  return best?.seat ?? null;
}

/** Last index of `word` in `text` as a whole word (so "Ann" is not found in "Annual"); -1 when absent. */
function lastWordAt(text: string, word: string): number {
  let at = text.lastIndexOf(word);
  while (at >= 0) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + word.length] ?? '';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return at;
    at = at === 0 ? -1 : text.lastIndexOf(word, at - 1);
  }
  return -1;
}
