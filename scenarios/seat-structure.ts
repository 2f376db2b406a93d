import type { Scenario } from './model.js';

/** One structural problem of a scenario's seats: the field and what is wrong with it. */
export interface SeatStructureProblem {
  field: string;
  problem: string;
}

/** Most seats a scenario may have: a group fits in one prompt, and a turn order cycles through it. */
export const MAX_SEATS = 12;

/**
 * What the schema cannot say about a scenario's seats, checked when a scenario file is read (the edge):
 * seat ids are unique; every pair relationship names two different real seats, each pair once; every
 * narrative segment is addressed to real seats. Returns the first problem, or null. Messages quote seat
 * ids, which the schema has already limited to `[A-Za-z0-9_-]{1,32}`.
 */
export function seatStructureProblem(s: Scenario): SeatStructureProblem | null {
  const ids = s.seats.map((x) => x.seat);
  if (ids.length > MAX_SEATS) return { field: 'seats', problem: `${ids.length} seats; a scenario has at most ${MAX_SEATS}` };
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup !== undefined) return { field: 'seats', problem: `seat id '${dup}' appears twice` };
  const known = new Set(ids);
  const pairs = new Set<string>();
  for (const [i, r] of (s.relationships ?? []).entries()) {
    const [a, b] = r.seats;
    for (const seat of [a, b]) {
      if (!known.has(seat)) return { field: `relationships.${i}.seats`, problem: `unknown seat '${short(seat)}' (seats: ${ids.join(', ')})` };
    }
    if (a === b) return { field: `relationships.${i}.seats`, problem: `a relationship needs two different seats, not '${a}' twice` };
    const key = [a, b].sort().join('\u0000');
    if (pairs.has(key)) return { field: `relationships.${i}.seats`, problem: `the pair ${a}, ${b} has two relationships` };
    pairs.add(key);
  }
  for (const [i, seg] of s.narrative.entries()) {
    if (seg.visibleTo === 'all') continue;
    const unknown = seg.visibleTo.find((v) => !known.has(v));
    if (unknown !== undefined) return { field: `narrative.${i}.visibleTo`, problem: `unknown seat '${short(unknown)}' (seats: ${ids.join(', ')})` };
  }
  return null;
}

/** A name from the file, cut short and kept on one line for an error message. */
function short(text: string): string {
  const one = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return one.length > 40 ? `${one.slice(0, 40)}…` : one;
}
