import { heardMove, moveAction, parseMove, speakMove, type Action, type ScriptTurn, type TaskKind, type TurnEvent } from '../../../protocol/index.js';
import { tallyAuction, tallySplit } from '../../../seat-client/group-tally.js';
import type { SeatView } from '../../policy.js';

/**
 * Bots under `--protocol paper`, where no task move exists: a bot says its choice aloud instead
 * ("select Jane Doe" becomes a sentence naming Jane Doe, "quit" becomes `leave`), reads its partner's
 * spoken choices back as moves so its strategy is unchanged, and leaves once the task is over (the
 * paper's episodes end by leaving, the turn limit or the stale rule). Task outcomes are measured
 * after the fact from what was said.
 */

/** The view with spoken choices read back as the moves they stand for (what the bot strategies read). */
export function asMoves(view: SeatView): SeatView {
  const events: TurnEvent[] = view.events.map((e) => {
    const move = heardMove(e.action);
    return move ? { ...e, action: moveAction(move) } : e;
  });
  return { ...view, events };
}

/** Whether the moves so far would have ended the task under `parley` (a deal closed, every seat answered). */
export function taskOver(kind: TaskKind, seats: readonly string[], events: readonly { seat: string; action: Action }[]): boolean {
  const moves = events.map((e) => ({ seat: e.seat, move: parseMove(e.action) }));
  if (kind === 'craigslist') return moves.some((m) => m.move?.move === 'accept' || m.move?.move === 'quit');
  if (kind === 'auction') return tallyAuction(events, sellerAmong(events, seats)).closed !== null;
  if (kind === 'split') return tallySplit(events, seats, null).passed !== null;
  if (kind === 'mutual_friends') {
    const selected = new Set(moves.filter((m) => m.move?.move === 'select').map((m) => m.seat));
    return seats.every((s) => selected.has(s));
  }
  return false;
}

/**
 * The auction's seller as the public moves show it: the seat whose `accept` or `quit` follows a bid by
 * another seat is taken as the seller's (only a seller's accept ends an auction). Without such a move the
 * first seat stands in (the built-in auctions seat the seller first).
 */
function sellerAmong(events: readonly { seat: string; action: Action }[], seats: readonly string[]): string | null {
  const bidders = new Set<string>();
  for (const e of events) {
    const m = parseMove(e.action);
    if (m?.move === 'offer') bidders.add(e.seat);
    else if ((m?.move === 'accept' || m?.move === 'quit') && !bidders.has(e.seat) && bidders.size > 0) return e.seat;
  }
  return seats[0] ?? null;
}

/** A bot's move under `paper`: its strategy's move said aloud, or `leave` once the task is over. */
export function paperBotMove(view: SeatView, decide: (view: SeatView) => Action): Action {
  const heard = asMoves(view);
  if (taskOver(view.welcome.scenario.kind, view.welcome.scenario.seats, heard.events)) return { type: 'leave', argument: '' };
  const action = decide(heard);
  const move = parseMove(action);
  return move ? speakMove(move) : action;
}

/** A bot's script under `paper`: task moves said aloud, and a leave once the task is over. */
export function paperBotScript(kind: TaskKind, seats: readonly string[], turns: readonly ScriptTurn[]): ScriptTurn[] {
  const out: ScriptTurn[] = [];
  const left = new Set<string>();
  for (const [i, t] of turns.entries()) {
    const move = parseMove(t.action);
    out.push({ seat: t.seat, action: move ? speakMove(move) : t.action });
    // A pair ends at the first leave; a group when all but one have left.
    if (out[out.length - 1]!.action.type === 'leave') left.add(t.seat);
    if (left.size > 0 && left.size >= seats.length - 1) return out;
    if (taskOver(kind, seats, turns.slice(0, i + 1))) {
      const next = seats[(seats.indexOf(t.seat) + 1) % seats.length]!;
      out.push({ seat: next, action: { type: 'leave', argument: '' } });
      return out;
    }
  }
  return out;
}
