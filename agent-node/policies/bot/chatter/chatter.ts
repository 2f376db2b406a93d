import type { Action, ScriptRequest, ScriptTurn, TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';

/**
 * `bot:chatter`: speaks on every turn and never ends an episode (no leave, no task move), so every
 * episode runs to `maxTurns`. Made for load tests and the benchmark, where episodes of a known length
 * are wanted; it plays any scenario kind and says nothing private.
 */
export function decideChatter(view: SeatView, request: TurnRequest): Action {
  const heard = view.events.length;
  const me = view.welcome.self.profile.name ?? view.welcome.seat;
  return { type: 'speak', argument: `${me} (turn ${request.turn}): I have heard ${heard} line${heard === 1 ? '' : 's'} so far. Tell me more.` };
}

/** The chatter script: `maxTurns` lines alternating over the scenario's seats. */
export function writeChatterScript(request: ScriptRequest): ScriptTurn[] {
  const seats = request.background.seats;
  return Array.from({ length: request.limits.maxTurns }, (_, turn) => {
    const s = seats[turn % seats.length]!;
    return { seat: s.seat, action: { type: 'speak', argument: `${s.profile.name ?? s.seat} (turn ${turn}): Tell me more.` } };
  });
}
