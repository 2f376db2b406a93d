import { moveAction, type Action, type Friend, type MutualFriendsPrivate, type TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { decideMutualFriends } from './agents.js';
import { buildBelief, friendNamed } from './belief.js';
import { describe, friendName, nameAttribute, sameFriend } from './phrases.js';

/** The partner's friend list, if a `peer.state` frame delivered it. */
export function peerFriends(view: SeatView): MutualFriendsPrivate | null {
  for (const peer of view.peers) if (peer.task?.kind === 'mutual_friends') return peer.task;
  return null;
}

/** The friends identical in both lists (the task has exactly one). */
export function sharedFriends(mine: MutualFriendsPrivate, theirs: MutualFriendsPrivate): Friend[] {
  return mine.friends.filter((f) => theirs.friends.some((g) => sameFriend(f, g)));
}

/**
 * MutualFriends in `mindreaders` mode: the partner's list arrived in `peer.state`, so intersect the lists,
 * name the shared friend once, then select it. Without a usable peer state it plays like `agents`.
 */
export function decideMutualFriendsMindreader(view: SeatView, request: TurnRequest, task: MutualFriendsPrivate): Action {
  const theirs = peerFriends(view);
  const shared = theirs ? sharedFriends(task, theirs) : [];
  if (shared.length === 0) return decideMutualFriends(view, request, task);
  const nameAttr = nameAttribute(task.attributes);
  const friend = shared[0]!;
  const name = friendName(friend, nameAttr);
  const b = buildBelief(view, task);
  if (b.mySelection === name && b.partnerSelection) {
    const theirsPick = friendNamed(b, b.partnerSelection);
    if (theirsPick && friendName(theirsPick, nameAttr) !== name) return moveAction({ move: 'select', name: friendName(theirsPick, nameAttr) });
    return { type: 'leave', argument: '' };
  }
  if (b.mySelection === name) return { type: 'speak', argument: `I picked ${name}. Please pick ${name} too.` };
  // Once the name is out — said by either side — select it.
  const named = view.events.some((e) => e.action.type === 'speak' && e.action.argument.includes(name));
  if (named || b.partnerSelection === name) return moveAction({ move: 'select', name });
  const details = describe(friend, task.attributes, nameAttr);
  return { type: 'speak', argument: `I think our mutual friend is ${name}${details ? `, who ${details}` : ''}.` };
}
