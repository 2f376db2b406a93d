import { ErrorCode, type Action, type FailureInfo } from '../../protocol/index.js';
import { type SimulationProtocol } from '../../simulation/index.js';

/**
 * `--on-unparsable none` (the `paper` default): SOTOPIA's code turned an agent reply it still could not
 * read after one reformat request into a `none` and went on. Parley does the same only for that one
 * failure, and never silently (DESIGN invariant 5): the failure stays on the record beside the `none`.
 * Every other failure (a provider error, a deadline) still ends the episode.
 */
export function becomesNone(error: FailureInfo, protocol: SimulationProtocol): boolean {
  return protocol.onUnparsable === 'none' && error.code === ErrorCode.PolicyUnparsable;
}

/** The move recorded for an unreadable reply under `--on-unparsable none`: SOTOPIA's `none` with an empty argument. */
export const UNPARSABLE_NONE: Action = Object.freeze({ type: 'none', argument: '' }) as Action;
