import { parseMove, type Termination, type TurnRecord } from '../../protocol/index.js';
import { definitionOf, PARLEY_PROTOCOL, type SimulationProtocol } from '../../simulation/index.js';
import { auctionOutcome, sellerOf, splitOutcome } from '../../scenarios/group-outcome.js';
import type { Scenario } from '../../scenarios/model.js';
import { seatsThatLeft } from './turn-order.js';

/** How an episode ended: the record schema's shape (protocol/record.ts), produced here. */
export type { Termination };

/** SOTOPIA ends an episode after more than 2 consecutive `none` actions. */
export const MAX_CONSECUTIVE_NONE = 2;

/**
 * The most moves an episode may have. SOTOPIA's code (RuleBasedTerminatedEvaluator, `turn_number >
 * max_turn_number`) stops only after turn #maxTurns, i.e. maxTurns + 1 moves; the paper says maxTurns.
 * `--protocol paper` follows the code unless `--stop-rule paper`; `parley` keeps maxTurns.
 */
export function turnCap(maxTurns: number, protocol: SimulationProtocol = PARLEY_PROTOCOL): number {
  return definitionOf(protocol.name).engine.turnCap(maxTurns, protocol);
}

/**
 * Trailing `none`s as SOTOPIA's code counts them: its inbox holds, for every step, one action per agent,
 * and the agent not on turn is recorded with a masked `none`. So the count runs over the actor's move and
 * the masked moves of the others (a single `none` by the second of two seats already makes three).
 */
function codeStaleCount(seats: readonly string[], turns: readonly TurnRecord[]): number {
  let count = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    // Within a step the messages are in seat order; read them backwards.
    for (const seat of [...seats].reverse()) {
      const isNone = seat !== t.seat || t.action?.type === 'none';
      if (!isNone) return count;
      count++;
    }
  }
  return count;
}

/**
 * Whether the episode ends after its latest turn, by the rules shared by the live turn loop and by
 * script validation (so a script is cut exactly where a live episode would stop).
 * `parley`: a seat leaves (in a group: all but one have left); more than 2 consecutive `none`; a
 * Craigslist `accept` or `quit`; every MutualFriends seat has selected; an auction's seller accepts a bid
 * or quits; a split proposal passes; `maxTurns` reached.
 * `paper`: a seat leaves (a group: all but one); the stale rule; the turn limit — as SOTOPIA's code has them (`stopRule: code`) or
 * as the paper words them (`stopRule: paper`). No task move ends an episode.
 * Turns with an error (no action) end the episode elsewhere.
 */
export function terminationAfter(
  scenario: Scenario,
  turns: readonly TurnRecord[],
  maxTurns: number,
  protocol: SimulationProtocol = PARLEY_PROTOCOL,
): Termination | null {
  const rules = definitionOf(protocol.name).engine;
  const cap = rules.turnCap(maxTurns, protocol);
  const last = turns[turns.length - 1];
  if (!last?.action) return turns.length >= cap ? { reason: 'max_turns' } : null;
  // Two seats: the first leave ends it (SOTOPIA). Groups: the others talk on until one is left alone.
  if (last.action.type === 'leave' && seatsThatLeft(turns).size >= scenario.seats.length - 1) return { reason: 'leave', seat: last.seat };
  if (rules.staleCount(protocol) === 'masked') {
    const stale = codeStaleCount(scenario.seats.map((s) => s.seat), turns);
    if (stale > MAX_CONSECUTIVE_NONE) return { reason: 'idle', detail: `${stale} consecutive none actions, masked ones included (SOTOPIA's code)` };
  } else {
    let nones = 0;
    for (let i = turns.length - 1; i >= 0 && turns[i]!.action?.type === 'none'; i--) nones++;
    if (nones > MAX_CONSECUTIVE_NONE) return { reason: 'idle', detail: `${nones} consecutive none actions` };
  }
  if (rules.taskEndStops) {
    const move = parseMove(last.action);
    if (scenario.kind === 'craigslist' && move && (move.move === 'accept' || move.move === 'quit')) {
      return { reason: 'task_end', detail: move.move, seat: last.seat };
    }
    if (scenario.kind === 'auction' && move && last.seat === sellerOf(scenario) && (move.move === 'accept' || move.move === 'quit')) {
      if (move.move === 'quit' || auctionOutcome(scenario, turns, parseMove).sold) return { reason: 'task_end', detail: move.move, seat: last.seat };
    }
    if (scenario.kind === 'split' && (move?.move === 'accept' || move?.move === 'propose') && splitOutcome(scenario, turns, parseMove).passed) {
      return { reason: 'task_end', detail: 'passed', seat: last.seat };
    }
    if (scenario.kind === 'mutual_friends' && move?.move === 'select') {
      const selected = new Set(turns.filter((t) => t.action && parseMove(t.action)?.move === 'select').map((t) => t.seat));
      if (scenario.seats.every((s) => selected.has(s.seat))) return { reason: 'task_end', detail: 'all_selected' };
    }
  }
  if (turns.length >= cap) return { reason: 'max_turns' };
  return null;
}
