import { moveAction, type Action, type SplitPrivate, type TurnRequest } from '../../../../protocol/index.js';
import { tallySplit } from '../../../../seat-client/group-tally.js';
import type { SeatView } from '../../../policy.js';
import { orderedEvents, selfSeat } from '../conversation.js';
import { decideSplit, shareOut } from './agents.js';

/**
 * The split in `mindreaders` mode: a seat that read the others' minimums proposes at once what buys just
 * enough votes for a majority — the cheapest partners at their minimums, the rest to itself. Votes and
 * everything else as in `agents` mode.
 */
export function decideSplitMindreader(view: SeatView, request: TurnRequest, task: SplitPrivate): Action {
  const me = selfSeat(view);
  const seats = view.welcome.scenario.seats;
  const minimums = new Map(view.peers.flatMap((p) => (p.task?.kind === 'split' ? [[p.seat, p.task.minimum] as const] : [])));
  const { open } = tallySplit(orderedEvents(view), seats, task.total);
  const needed = Math.floor(seats.length / 2); // partners needed beside this seat for more than half
  if (open || minimums.size < needed) return decideSplit(view, request, task);
  const cheapest = [...minimums].sort((a, b) => a[1] - b[1]).slice(0, needed);
  const bought = cheapest.reduce((n, [, m]) => n + m, 0);
  if (bought + task.minimum > task.total) return decideSplit(view, request, task);
  const others = new Map(seats.filter((s) => s !== me).map((s) => [s, 0] as [string, number]));
  for (const [seat, m] of cheapest) others.set(seat, m);
  return moveAction({ move: 'propose', shares: shareOut(seats, me, task.total, task.total - bought, others) });
}
