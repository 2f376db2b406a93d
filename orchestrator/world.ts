import { ACTION_TYPES, type Limits, type Mode } from '../protocol/index.js';
import { PARLEY_PROTOCOL, type SimulationProtocol } from '../simulation/index.js';
import type { Scenario } from '../scenarios/model.js';
import type { WorldGame } from './game/deal-world.js';

/** Seat id of the script writer in script mode (its ledger is `script.jsonl`). */
export const SCRIPT_SEAT = 'script';

/**
 * The full world of one episode as only the orchestrator holds it: the whole scenario (secrets and
 * judge-only text included), the mode and the limits. Seats never receive this; they receive what
 * `observe(world, seat)` projects from it.
 */
export interface World {
  episodeId: string;
  scenario: Scenario;
  mode: Mode;
  limits: Limits;
  /** The simulation protocol (absent: `parley`, today's behaviour). */
  protocol?: SimulationProtocol;
  /** A seat's own turn deadline where it differs from `limits.turnDeadlineMs` (a person: `--human-deadline`). */
  seatDeadlineMs?: Readonly<Record<string, number>>;
  /** A hidden-role game: its rules and the roles as dealt (the scenario's seats carry each seat's card). */
  game?: WorldGame;
}

/** The episode's protocol, `parley` when none was set. */
export function protocolOf(world: World): SimulationProtocol {
  return world.protocol ?? PARLEY_PROTOCOL;
}

/** Limits with SOTOPIA's full action set. */
export function makeLimits(maxTurns: number, turnDeadlineMs: number): Limits {
  return { maxTurns, turnDeadlineMs, actions: [...ACTION_TYPES] };
}

/** Seat ids in turn order. */
export function seatOrder(world: World): string[] {
  return world.scenario.seats.map((s) => s.seat);
}

/** Seats that a process plays: the scenario's seats, or the script writer alone in script mode. */
export function liveSeats(world: World): string[] {
  return world.mode === 'script' ? [SCRIPT_SEAT] : seatOrder(world);
}
