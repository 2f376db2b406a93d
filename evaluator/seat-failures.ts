/**
 * How a pass over a run's episodes (judging, `eval --attribute`) counts the seats it failed on: how many,
 * and how many per error code, so that both passes report failures alike and none goes uncounted
 * (DESIGN invariant 5: a failed seat is an explicit error, never a 0 score).
 */
export interface SeatFailures {
  errorSeats: number;
  /** Error codes → number of seats. */
  errors: Record<string, number>;
}

/** Adds the failed ones of `seats` to `tally`; returns how many succeeded (each pass counts those under its own name). */
export function countSeatFailures(tally: SeatFailures, seats: Iterable<{ ok: true } | { ok: false; error: { code: string } }>): number {
  let succeeded = 0;
  for (const s of seats) {
    if (s.ok) succeeded++;
    else {
      tally.errorSeats++;
      tally.errors[s.error.code] = (tally.errors[s.error.code] ?? 0) + 1;
    }
  }
  return succeeded;
}
