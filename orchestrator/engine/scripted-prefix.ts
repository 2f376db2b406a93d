import { receiversOf, type Body, type PeerState, type TurnRecord } from '../../protocol/index.js';
import { observeTurn } from '../observe.js';
import type { SeatPort } from './engine-types.js';

/**
 * A fork's replayed prefix (`parley fork`): the parent episode's first turns, played back exactly instead
 * of asking the seats, then what the fork reveals at its fork turn.
 */
export interface ScriptedPrefix {
  /** The parent's turn records `0 … at-1`, each with an action (a failed turn cannot be replayed). */
  turns: readonly TurnRecord[];
  /** `peer.state` frames each seat receives at the fork turn (`--reveal`), after the prefix. */
  reveals: ReadonlyMap<string, ReadonlyArray<Body<PeerState>>>;
  /** Called once the prefix is sent and before the live part (reveals included) begins: ledgers mark where. */
  onLive?: () => void;
}

/**
 * Sends every seat that received it the `turn.event` of each replayed turn, in turn order, exactly as the parent's seats
 * received them (`observeTurn`, the one public view of a move). No seat is sent a `turn.request` for these
 * turns, so no policy is asked and no LLM is called: a seat's view (welcome, partner states, public moves)
 * is the parent seat's when it is first asked to move, at the fork turn. Returns copies of the records.
 */
export function replayPrefix(prefix: ScriptedPrefix, order: readonly string[], ports: ReadonlyMap<string, SeatPort>): TurnRecord[] {
  const turns: TurnRecord[] = [];
  for (const p of ports.values()) p.hold?.();
  prefix.turns.forEach((record, t) => {
    if (record.turn !== t || !record.action) throw new Error(`replayed prefix: turn ${t} is not a played move`);
    const copy = structuredClone(record);
    turns.push(copy);
    const event = observeTurn({ ...copy, action: copy.action! });
    // A replayed whisper stays private: the fork's seats receive it exactly as the parent's did.
    for (const s of receiversOf(copy.action!, copy.seat, order)) ports.get(s)!.send(event);
  });
  for (const p of ports.values()) p.flush?.();
  prefix.onLive?.();
  for (const [seat, frames] of prefix.reveals) {
    const port = ports.get(seat);
    if (!port) throw new Error(`reveal for unknown seat ${seat}`);
    for (const f of frames) port.send(f);
  }
  return turns;
}
