import type { ProtocolView, SeatCapabilities } from '../protocol/simulation-protocol.js';
import { definitionOf } from './protocols.js';

/**
 * How a seat is to play: the capabilities its frame carries (`protocol.seat`), else those of the protocol
 * the frame names (an orchestrator older than capabilities), else the default protocol's (no protocol
 * named: agents and frames from before the setting). Agent processes, bots, the terminal seat and the
 * browser page read this, never a protocol's name.
 */
export function seatCapabilities(view: ProtocolView | undefined): SeatCapabilities {
  return view?.seat ?? definitionOf(view?.name).seat;
}
