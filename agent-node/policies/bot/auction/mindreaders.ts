import type { Action, AuctionPrivate, TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { bidStep, buyerMove, decideAuction } from './agents.js';

/**
 * The auction in `mindreaders` mode: a buyer that read the other buyers' valuations bids at once what
 * beats the best of them (one step above it), if that is within its own valuation; otherwise it bids as
 * in `agents` mode (and drops out when the price passes its valuation). The seller plays as in `agents`.
 */
export function decideAuctionMindreader(view: SeatView, request: TurnRequest, task: AuctionPrivate): Action {
  if (task.role === 'seller') return decideAuction(view, request, task);
  const rivals = view.peers.flatMap((p) => (p.task?.kind === 'auction' && p.task.role === 'buyer' ? [p.task.valuation] : []));
  const ceiling = rivals.length ? Math.max(...rivals) + bidStep(task.valuation) : null;
  return buyerMove(view, task, ceiling !== null && ceiling <= task.valuation ? ceiling : null);
}
