import { moveAction, type ScriptBackground, type ScriptTurn } from '../../../../protocol/index.js';
import { BotError, BotErrorCode } from '../bot-policy.js';
import { describe, friendName, nameAttribute, phrase } from './phrases.js';
import { sharedFriends } from './mindreaders.js';

/**
 * Script mode for MutualFriends: the writer sees both lists, so the dialogue finds the shared friend in a
 * few lines and both seats select it. Seats alternate in the scenario's order; at most `maxTurns` turns.
 */
export function writeMutualFriendsScript(bg: ScriptBackground, maxTurns: number): ScriptTurn[] {
  const order = bg.scenario.seats;
  const tasks = order.map((seat) => bg.seats.find((s) => s.seat === seat)?.task);
  if (tasks.some((t) => t?.kind !== 'mutual_friends')) throw new BotError(BotErrorCode.NoTask, 'every seat needs a MutualFriends friend list');
  const lists = tasks as Array<Extract<NonNullable<(typeof tasks)[number]>, { kind: 'mutual_friends' }>>;
  let shared = lists[0]!.friends;
  for (const list of lists.slice(1)) shared = sharedFriends({ ...lists[0]!, friends: shared }, list);
  const friend = shared[0];
  if (!friend) throw new BotError(BotErrorCode.NoSharedFriend, 'the friend lists have no friend in common');
  const attrs = lists[0]!.attributes;
  const nameAttr = nameAttribute(attrs);
  const name = friendName(friend, nameAttr);
  const [first, ...rest] = attrs.filter((a) => a !== nameAttr && friend[a] !== undefined);
  const lines: string[] = [];
  if (first) {
    lines.push(`Hi! Do you know anyone who ${phrase(first, friend[first]!, false)}?`);
    const more = rest.length ? `, and who ${describe(friend, attrs, nameAttr, first)}` : '';
    lines.push(`Yes, I know someone who ${phrase(first, friend[first]!, false)}${more}.`);
  }
  lines.push(`That sounds like ${name}! Do you know ${name}?`);
  // Every seat selects at the end; when turns are short, the talk is cut, never the selections.
  const room = Math.max(0, maxTurns - order.length);
  const actions = [
    ...lines.slice(0, room).map((argument) => ({ type: 'speak' as const, argument })),
    ...order.map(() => moveAction({ move: 'select', name })),
  ];
  return actions.slice(0, maxTurns).map((action, i) => ({ seat: order[i % order.length]!, action }));
}
