import { PROTOCOL_VERSION, type EpisodeRecord, type Limits, type TurnRequest } from '../protocol/index.js';
import type { SimulationProtocol } from '../simulation/index.js';
import type { Scenario } from '../scenarios/model.js';
import { observe, observeTurn } from '../orchestrator/observe.js';
import type { SeatTurn } from './seat-turns.js';

/** Which live view a script-mode turn is rendered into (the paper's Agents-ft data uses `agents`). */
export type ScriptView = 'agents' | 'mindreaders';

/**
 * A script-mode episode turned into each character's own point of view: for every written turn of a
 * seat, the view that seat would have held in a live `view`-mode episode at that point — built by THE
 * projection (`observe`) from the scenario, so the partner's secret and goal (agents view) and judge-only
 * text never reach it — plus the public moves written before it.
 */
export function seatTurnsFromScript(record: EpisodeRecord, scenario: Scenario, limits: Limits, view: ScriptView, seat: string, protocol?: SimulationProtocol): SeatTurn[] {
  // The run's protocol, as its live seats had it: under `paper`, SOTOPIA's prompt, not Parley's.
  const world = { episodeId: record.episodeId, scenario, mode: view, limits, ...(protocol ? { protocol } : {}) };
  const observation = observe(world, seat);
  if (observation.kind !== 'seat') return [];
  // The frames a live seat would have been sent, shaped as on the wire (the envelope is not rendered).
  const envelope = { v: PROTOCOL_VERSION, id: 'training' };
  const welcome = { ...envelope, ...observation.welcome };
  const peers = observation.peerStates.map((p) => p.state);
  const turns: SeatTurn[] = [];
  const moves = record.turns.filter((t): t is typeof t & { action: NonNullable<typeof t.action> } => t.action !== null);
  for (const t of moves) {
    if (t.seat !== seat) continue;
    const events = moves.filter((m) => m.turn < t.turn).map((m) => ({ ...envelope, ...observeTurn(m) }));
    const request: TurnRequest = { ...envelope, type: 'turn.request', turn: t.turn, actions: [...limits.actions], deadlineMs: limits.turnDeadlineMs };
    turns.push({ view: { welcome, peers, events }, request });
  }
  return turns;
}
