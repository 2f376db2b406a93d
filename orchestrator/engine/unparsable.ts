import { ErrorCode, LlmErrorCode, type Action, type FailureInfo } from '../../protocol/index.js';
import { type SimulationProtocol } from '../../simulation/index.js';

/**
 * Where a seat's failure, played as a `none`, is kept on the record: `unparsable` (an unreadable reply)
 * or `providerError` (an LLM call that failed after its retries).
 */
export type NoneReason = 'unparsable' | 'providerError';

/**
 * The `llm/*` codes of a provider's failure after the client's retries. Not among them: an aborted call
 * (the turn's deadline or a shutdown, which the orchestrator handles itself), a missing key or a bad
 * spec (the run's configuration, wrong for every turn), and replay mismatches (a recording problem).
 */
const PROVIDER_FAILURES: ReadonlySet<string> = new Set<string>([
  LlmErrorCode.RateLimited,
  LlmErrorCode.HttpError,
  LlmErrorCode.Timeout,
  LlmErrorCode.Connection,
  LlmErrorCode.BadResponse,
]);

/**
 * Whether a seat's failure is played as a `none`, and where the failure is kept. SOTOPIA's code turned
 * an agent reply it still could not read after one reformat request into a `none` (`--on-unparsable
 * none`), and so too every exception of the LLM call (`--on-provider-error none`); both are the `paper`
 * defaults. Parley does it only for those failures, and never silently (DESIGN invariant 5): the failure
 * stays on the record beside the `none` and is counted. Every other failure still ends the episode.
 */
export function becomesNone(error: FailureInfo, protocol: SimulationProtocol): NoneReason | null {
  if (protocol.onUnparsable === 'none' && error.code === ErrorCode.PolicyUnparsable) return 'unparsable';
  if (protocol.onProviderError === 'none' && PROVIDER_FAILURES.has(error.code)) return 'providerError';
  return null;
}

/** The move recorded for a failure played as `none`: SOTOPIA's `none` with an empty argument. */
export const UNPARSABLE_NONE: Action = Object.freeze({ type: 'none', argument: '' }) as Action;
