import type { Action, ScriptBackground, ScriptTurn, SeatWelcome, TurnEvent, TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';

/**
 * Script mode for the group tasks (auction, split): the one writer plays every voice by running each
 * character's `agents`-mode bot in turn (round robin, past characters that left) over the dialogue
 * written so far. It sees every background, but each voice is decided from that character's own data
 * and the public lines, so the script is the dialogue the agents would have had.
 */
export function writeByPlaying(bg: ScriptBackground, maxTurns: number, decide: (view: SeatView, request: TurnRequest) => Action, ended: (turns: readonly ScriptTurn[]) => boolean): ScriptTurn[] {
  const order = bg.scenario.seats;
  const turns: ScriptTurn[] = [];
  const left = new Set<string>();
  let next = 0;
  for (let t = 0; t < maxTurns && left.size < order.length - 1; t++) {
    while (left.has(order[next % order.length]!)) next++;
    const seat = order[next % order.length]!;
    next++;
    const view = seatViewOf(bg, seat, turns, maxTurns);
    const action = decide(view, { type: 'turn.request', turn: t, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 1 } as TurnRequest);
    turns.push({ seat, action });
    if (action.type === 'leave') left.add(seat);
    if (ended(turns)) break;
  }
  return turns;
}

/** What one character would have been told: its own background and the public lines so far. */
function seatViewOf(bg: ScriptBackground, seat: string, turns: readonly ScriptTurn[], maxTurns: number): SeatView {
  const own = bg.seats.find((s) => s.seat === seat)!;
  const welcome = {
    type: 'seat.welcome',
    episodeId: bg.scenario.id,
    seat,
    mode: 'agents',
    scenario: bg.scenario,
    self: { seat, profile: own.profile, goal: own.goal, hints: own.hints, task: own.task },
    partners: own.partners,
    limits: { maxTurns, turnDeadlineMs: 1, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'] },
  } as unknown as SeatWelcome;
  const events: TurnEvent[] = turns.map((t, i) => ({ type: 'turn.event', turn: i, seat: t.seat, action: t.action }) as TurnEvent);
  return { welcome, peers: [], events };
}
