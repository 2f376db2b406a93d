import type { Action, ActionType, TurnEvent, TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';

/** This seat's id. */
export const selfSeat = (view: SeatView): string => view.welcome.seat;

/** Public moves in turn order (the view keeps them ordered; sorting again is cheap and defensive). */
export function orderedEvents(view: SeatView): TurnEvent[] {
  return [...view.events].sort((a, b) => a.turn - b.turn);
}

/** Moves by other seats, in turn order. */
export const partnerEvents = (view: SeatView): TurnEvent[] => orderedEvents(view).filter((e) => e.seat !== selfSeat(view));

/** This seat's own moves, in turn order. */
export const ownEvents = (view: SeatView): TurnEvent[] => orderedEvents(view).filter((e) => e.seat === selfSeat(view));

/** How many turns this seat still gets, this one included, assuming round-robin over the scenario's seats. */
export function ownTurnsLeft(view: SeatView, request: TurnRequest): number {
  const seats = Math.max(1, view.welcome.scenario.seats.length);
  const remaining = Math.max(1, view.welcome.limits.maxTurns - request.turn);
  return Math.ceil(remaining / seats);
}

/** How many moves this seat has made so far. */
export const ownMoveCount = (view: SeatView): number => ownEvents(view).length;

/**
 * Makes a wanted move fit the action types the orchestrator allows this turn: a task move that may not be
 * an `action` is said aloud instead, a `leave` that is not allowed becomes a goodbye.
 */
export function fitAllowed(action: Action, allowed: readonly ActionType[]): Action {
  if (allowed.includes(action.type)) return action;
  if (action.type === 'action' && allowed.includes('speak')) return { type: 'speak', argument: `(${action.argument})` };
  if (action.type === 'leave' && allowed.includes('speak')) return { type: 'speak', argument: 'Goodbye!' };
  if (allowed.includes('none')) return { type: 'none', argument: '' };
  return { type: allowed[0]!, argument: action.argument };
}
