import { moveAction, type Action, type SplitPrivate, type TurnRequest } from '../../../../protocol/index.js';
import { tallySplit } from '../../../../seat-client/group-tally.js';
import type { SeatView } from '../../../policy.js';
import { orderedEvents, ownEvents, selfSeat } from '../conversation.js';

/**
 * Shares in seat order: `mine` for this seat, the others given `others[seat]` when known, the rest of the
 * total spread evenly over the remaining seats (the remainder to the earliest). Never negative.
 */
export function shareOut(seats: readonly string[], me: string, total: number, mine: number, others: ReadonlyMap<string, number> = new Map()): number[] {
  const fixed = new Map(others);
  fixed.set(me, Math.min(total, mine));
  let left = total - [...fixed.values()].reduce((a, b) => a + b, 0);
  const free = seats.filter((s) => !fixed.has(s));
  if (left < 0) {
    // Known demands do not fit: keep this seat's share, scale the rest down.
    fixed.forEach((v, s) => { if (s !== me) fixed.set(s, 0); });
    left = total - Math.min(total, mine);
  }
  const each = free.length ? Math.floor(left / free.length) : 0;
  let extra = free.length ? left - each * free.length : left;
  return seats.map((s) => {
    if (fixed.has(s)) return s === me && !free.length ? fixed.get(s)! + extra : fixed.get(s)!;
    const share = each + (extra > 0 ? 1 : 0);
    if (extra > 0) extra--;
    return share;
  });
}

/**
 * The split in `agents` mode. On an open proposal it has not voted on, a seat votes for it when its
 * share reaches its minimum, against otherwise. With nothing to vote on, it proposes: its own wish at
 * first, conceding half the way to its minimum with every further proposal, the rest shared evenly.
 */
export function decideSplit(view: SeatView, _request: TurnRequest, task: SplitPrivate): Action {
  const me = selfSeat(view);
  const seats = view.welcome.scenario.seats;
  const { open } = tallySplit(orderedEvents(view), seats, task.total);
  if (open && open.proposer !== me && !open.yes.includes(me) && !open.no.includes(me)) {
    const share = open.shares[seats.indexOf(me)] ?? 0;
    return moveAction({ move: share >= task.minimum ? 'accept' : 'reject' });
  }
  // Our own proposal still waits for votes: say so rather than replace it.
  if (open?.proposer === me && seats.length - open.yes.length - open.no.length > 0) {
    return { type: 'speak', argument: `I hope you can back this: it is fair to everyone.` };
  }
  const proposed = ownEvents(view).filter((e) => e.action.type === 'action' && /^\s*propose/i.test(e.action.argument)).length;
  const mine = concede(task, proposed);
  return moveAction({ move: 'propose', shares: shareOut(seats, me, task.total, mine) });
}

/** This seat's share in its `n`-th proposal (0-based): its wish, then half the way to its minimum each time. */
export function concede(task: SplitPrivate, n: number): number {
  let share = task.want;
  for (let i = 0; i < n; i++) share = Math.max(task.minimum, Math.floor((share + task.minimum) / 2));
  return share;
}
