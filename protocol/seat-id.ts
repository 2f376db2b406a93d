import * as z from 'zod';

/** A seat id's grammar: one safe path segment (it names ledger files) of letters, digits, `_` and `-`. */
export const SEAT_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Names every plain object already answers to (`constructor`, `__proto__`, `toString`, …). Seat ids key
 * objects all through Parley (policies, maps, scores): as an id, such a name reads an inherited member
 * instead of a missing entry, or cannot be stored at all, so it is refused where a scenario is read.
 */
export const RESERVED_SEAT_IDS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Why `id` cannot be a seat id, or null. */
export function seatIdProblem(id: string): string | null {
  if (!SEAT_ID_PATTERN.test(id)) return 'a seat id is 1-32 letters, digits, _ or -';
  if (RESERVED_SEAT_IDS.has(id)) return `'${id}' is reserved (a name every JavaScript object has); choose another seat id`;
  return null;
}

/** A seat id as a scenario names it (checked once, where the scenario is read). */
export const SeatId = z.string().superRefine((id, ctx) => {
  const problem = seatIdProblem(id);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
