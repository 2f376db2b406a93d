import { moveAction, type Action, type CraigslistPrivate, type ScriptBackground, type ScriptTurn } from '../../../../protocol/index.js';
import { BotError, BotErrorCode } from '../bot-policy.js';

/**
 * Script mode for Craigslist: the writer knows both targets, so after a greeting each side names its target
 * and they settle halfway between them, which the second seat accepts. At most `maxTurns` turns; when
 * short, the small talk goes first, then the opening offers.
 */
export function writeCraigslistScript(bg: ScriptBackground, maxTurns: number): ScriptTurn[] {
  const order = bg.scenario.seats;
  const tasks = order.map((seat) => bg.seats.find((s) => s.seat === seat)?.task ?? null);
  const first = tasks[0];
  const second = tasks[1];
  if (first?.kind !== 'craigslist' || second?.kind !== 'craigslist') {
    throw new BotError(BotErrorCode.NoTask, 'a Craigslist script needs the first two seats to have Craigslist terms');
  }
  const buyer = [first, second].find((t) => t.role === 'buyer') ?? first;
  const seller = [first, second].find((t) => t.role === 'seller') ?? second;
  const mid = Math.round((buyer.target + seller.target) / 2);
  const title = first.item.title;
  const talk: [Action, Action] = [
    { type: 'speak', argument: greeting(first, title) },
    { type: 'speak', argument: greeting(second, title) },
  ];
  const bargaining: Action[] =
    buyer.target < seller.target
      ? [
          moveAction({ move: 'offer', price: first.target }),
          moveAction({ move: 'offer', price: second.target }),
          moveAction({ move: 'offer', price: mid }),
          moveAction({ move: 'accept' }),
        ]
      : [moveAction({ move: 'offer', price: mid }), moveAction({ move: 'accept' })];
  // Trim pairs so the offer made by the first seat is always accepted by the second.
  let actions: Action[] = [...talk, ...bargaining];
  if (actions.length > maxTurns) actions = bargaining.length > maxTurns ? bargaining.slice(-2) : bargaining;
  if (actions.length > maxTurns) actions = actions.slice(0, maxTurns);
  return actions.map((action, i) => ({ seat: order[i % 2]!, action }));
}

function greeting(task: CraigslistPrivate, title: string): string {
  return task.role === 'buyer'
    ? `Hi! I'm interested in your ${title}. Is it still available?`
    : `Hello! Yes, the ${title} is still for sale, and it's in great condition.`;
}
