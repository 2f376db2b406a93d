import type { Action, TaskKind, TaskPrivate, TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { BotError, BotErrorCode } from './bot-policy.js';
import { decideAuction } from './auction/agents.js';
import { decideAuctionMindreader } from './auction/mindreaders.js';
import { decideCraigslist } from './craigslist/agents.js';
import { decideSplit } from './split/agents.js';
import { decideSplitMindreader } from './split/mindreaders.js';
import { decideCraigslistMindreader } from './craigslist/mindreaders.js';
import { decideMutualFriends } from './mutual-friends/agents.js';
import { decideMutualFriendsMindreader } from './mutual-friends/mindreaders.js';
import { decideOpenChat } from './open/chat.js';
import { decideGame } from './game/decide-game.js';

/** A bot for seats that hold a task of one kind. */
type TaskBot<T> = (view: SeatView, request: TurnRequest, task: T) => Action;
type TaskOf<K extends TaskPrivate['kind']> = Extract<TaskPrivate, { kind: K }>;

/**
 * Per task kind: the bot for a seat that sees only its own side, the mindreader variant (used once a
 * partner's private state arrived), and the refusal recorded when the seat holds no task of that kind.
 * A hidden-role game has one bot: its card already says what a seat may know.
 */
const TASK_BOTS: { [K in TaskPrivate['kind']]: { agents: TaskBot<TaskOf<K>>; mindreaders: TaskBot<TaskOf<K>>; noTask: string } } = {
  mutual_friends: { agents: decideMutualFriends, mindreaders: decideMutualFriendsMindreader, noTask: 'this seat has no MutualFriends friend list' },
  craigslist: { agents: decideCraigslist, mindreaders: decideCraigslistMindreader, noTask: 'this seat has no Craigslist terms (role, target)' },
  auction: { agents: decideAuction, mindreaders: decideAuctionMindreader, noTask: 'this seat has no auction role and valuation' },
  split: { agents: decideSplit, mindreaders: decideSplitMindreader, noTask: 'this seat has no share of a split' },
  game: { agents: decideGame, mindreaders: decideGame, noTask: 'this seat has no game card' },
};

/** Plays a seat of a scenario of `kind`: the mindreader variant when partners' private states arrived. */
export function decideFor(kind: TaskKind, view: SeatView, request: TurnRequest): Action {
  return kind === 'open' ? decideOpenChat(view, request) : decideTask(kind, view, request);
}

function decideTask<K extends TaskPrivate['kind']>(kind: K, view: SeatView, request: TurnRequest): Action {
  const bots = TASK_BOTS[kind] as { agents: TaskBot<TaskOf<K>>; mindreaders: TaskBot<TaskOf<K>>; noTask: string };
  const task = view.welcome.self.task;
  if (task?.kind !== kind) throw new BotError(BotErrorCode.NoTask, bots.noTask);
  return (view.peers.length > 0 ? bots.mindreaders : bots.agents)(view, request, task as TaskOf<K>);
}
