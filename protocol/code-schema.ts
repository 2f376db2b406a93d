import * as z from 'zod';
import { CODE_PATTERN, OWN_CODES } from './codes.js';

/**
 * How a record or frame field types its `code`, decided per field by who wrote the code:
 *
 * - `OwnCodeField`: a code Parley itself writes (run.json's summary error, a verdict's error, a seat event
 *   the orchestrator logs). Validated against the registry (protocol/codes.ts), so a code invented inline
 *   fails on the first read of the record instead of reaching a report unlisted. Old records stay valid
 *   because a released code is never taken off the registry (codes.ts `OWN_CODES`).
 * - `ReportedCodeField`: a code another process reported (a seat's `turn.fail`/`script.fail`, an
 *   orchestrator's `error` frame read by an agent). That process may be a remote agent or a different
 *   version of Parley with codes this one does not know, so it is held to the grammar (`area/reason`)
 *   only: refusing an unknown code would lose the failure it names (DESIGN invariant 5).
 */
export const OwnCodeField = z.enum(OWN_CODES);

/** A code reported by another process: the grammar of every code, size-capped (a code carries no text). */
export const ReportedCodeField = z.string().max(64).regex(CODE_PATTERN, 'must be a code (area/reason)');
