import type { Friend } from '../protocol/index.js';
import type { Scenario } from './model.js';
import { seatStructureProblem } from './seat-structure.js';

/** A consistency problem in a schema-valid scenario. */
export interface ScenarioProblem {
  id: string;
  field: string;
  problem: string;
}

/**
 * Checks what the schema cannot: unique seat ids, secrets matching characters, segments addressed to
 * real seats, judge-only text absent from everything a seat sees, and task data consistent with the truth
 * (MutualFriends: exactly one identical friend, equal to the answer; Craigslist: one buyer, one seller).
 */
export function checkScenario(s: Scenario): ScenarioProblem[] {
  const out: ScenarioProblem[] = [];
  const add = (field: string, problem: string) => out.push({ id: s.id, field, problem });
  const seatIds = s.seats.map((x) => x.seat);
  if (new Set(seatIds).size !== seatIds.length) add('seats', 'duplicate seat ids');
  s.seats.forEach((seat, i) => {
    if (seat.secret !== seat.character.secret) add(`seats.${i}.secret`, 'differs from character.secret');
  });
  s.narrative.forEach((seg, i) => {
    if (seg.visibleTo !== 'all') for (const v of seg.visibleTo) if (!seatIds.includes(v)) add(`narrative.${i}.visibleTo`, `unknown seat '${v}'`);
  });
  const judge = s.judgeOnly.trim();
  if (judge !== '') {
    const seen = [
      ...s.narrative.map((n, i) => [`narrative.${i}.text`, n.text] as const),
      ...s.seats.flatMap((seat, i) => [
        [`seats.${i}.goal`, seat.goal] as const,
        ...seat.hints.map((h, j) => [`seats.${i}.hints.${j}.text`, h.text] as const),
      ]),
    ];
    for (const [field, text] of seen) if (text.includes(judge)) add(field, 'contains the judge-only text');
  }
  if (s.kind !== 'open' && s.seats.some((seat) => seat.task?.kind !== s.kind)) add('seats', `every seat needs ${s.kind} task data`);
  if (s.kind !== 'open' && s.truth?.kind !== s.kind) add('truth', `needs ${s.kind} truth`);
  if (s.kind === 'mutual_friends' && s.truth?.kind === 'mutual_friends') {
    const key = (f: Friend) => JSON.stringify(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)));
    const lists = s.seats.map((seat) => (seat.task?.kind === 'mutual_friends' ? new Set(seat.task.friends.map(key)) : new Set<string>()));
    const common = [...lists[0]!].filter((k) => lists.every((l) => l.has(k)));
    if (common.length !== 1) add('seats', `expected exactly one friend in every list, found ${common.length}`);
    else if (common[0] !== key(s.truth.answer)) add('truth.answer', 'is not the shared friend');
  }
  if (s.kind === 'craigslist') {
    const roles = s.seats.map((seat) => (seat.task?.kind === 'craigslist' ? seat.task.role : undefined));
    if (!roles.includes('buyer') || !roles.includes('seller')) add('seats', 'needs one buyer and one seller');
  }
  if (s.kind === 'auction') {
    const roles = s.seats.map((seat) => (seat.task?.kind === 'auction' ? seat.task.role : undefined));
    if (roles.filter((r) => r === 'seller').length !== 1 || roles.filter((r) => r === 'buyer').length < 2) add('seats', 'an auction needs one seller and at least two buyers');
  }
  if (s.kind === 'split') {
    if (s.seats.length < 3) add('seats', 'a split needs at least three seats (a majority of two is unanimity)');
    for (const [i, seat] of s.seats.entries()) {
      const t = seat.task;
      if (t?.kind !== 'split' || s.truth?.kind !== 'split') continue;
      if (t.total !== s.truth.total) add(`seats.${i}.task.total`, 'differs from truth.total');
      if (t.minimum > t.want || t.want > t.total) add(`seats.${i}.task`, 'needs minimum ≤ want ≤ total');
    }
  }
  const structure = seatStructureProblem(s);
  // Seat ids and segments are checked above; the pair relationships here.
  if (structure?.field.startsWith('relationships')) add(structure.field, structure.problem);
  return out;
}
