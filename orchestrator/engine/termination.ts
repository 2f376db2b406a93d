import { parseMove, type Termination, type TurnRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';

/** How an episode ended: the record schema's shape (protocol/record.ts), produced here. */
export type { Termination };

/** SOTOPIA ends an episode after more than 2 consecutive `none` actions. */
export const MAX_CONSECUTIVE_NONE = 2;

/**
 * Whether the episode ends after its latest turn, by the rules shared by the live turn loop and by
 * script validation (so a script is cut exactly where a live episode would stop):
 * a seat leaves; more than 2 consecutive `none`; a Craigslist `accept` or `quit`; every MutualFriends
 * seat has selected; `maxTurns` reached. Turns with an error (no action) end the episode elsewhere.
 */
export function terminationAfter(scenario: Scenario, turns: readonly TurnRecord[], maxTurns: number): Termination | null {
  const last = turns[turns.length - 1];
  if (!last?.action) return turns.length >= maxTurns ? { reason: 'max_turns' } : null;
  if (last.action.type === 'leave') return { reason: 'leave', seat: last.seat };
  let nones = 0;
  for (let i = turns.length - 1; i >= 0 && turns[i]!.action?.type === 'none'; i--) nones++;
  if (nones > MAX_CONSECUTIVE_NONE) return { reason: 'idle', detail: `${nones} consecutive none actions` };
  const move = parseMove(last.action);
  if (scenario.kind === 'craigslist' && move && (move.move === 'accept' || move.move === 'quit')) {
    return { reason: 'task_end', detail: move.move, seat: last.seat };
  }
  if (scenario.kind === 'mutual_friends' && move?.move === 'select') {
    const selected = new Set(turns.filter((t) => t.action && parseMove(t.action)?.move === 'select').map((t) => t.seat));
    if (scenario.seats.every((s) => selected.has(s.seat))) return { reason: 'task_end', detail: 'all_selected' };
  }
  if (turns.length >= maxTurns) return { reason: 'max_turns' };
  return null;
}
