import type { Action, TaskKind, TurnRequest } from '../../../protocol/index.js';
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

/** Plays a seat of a scenario of `kind`: the mindreader variant when partners' private states arrived. */
export function decideFor(kind: TaskKind, view: SeatView, request: TurnRequest): Action {
  const task = view.welcome.self.task;
  const mindreading = view.peers.length > 0;
  switch (kind) {
    case 'mutual_friends':
      if (task?.kind !== 'mutual_friends') throw new BotError(BotErrorCode.NoTask, 'this seat has no MutualFriends friend list');
      return mindreading ? decideMutualFriendsMindreader(view, request, task) : decideMutualFriends(view, request, task);
    case 'craigslist':
      if (task?.kind !== 'craigslist') throw new BotError(BotErrorCode.NoTask, 'this seat has no Craigslist terms (role, target)');
      return mindreading ? decideCraigslistMindreader(view, request, task) : decideCraigslist(view, request, task);
    case 'auction':
      if (task?.kind !== 'auction') throw new BotError(BotErrorCode.NoTask, 'this seat has no auction role and valuation');
      return mindreading ? decideAuctionMindreader(view, request, task) : decideAuction(view, request, task);
    case 'split':
      if (task?.kind !== 'split') throw new BotError(BotErrorCode.NoTask, 'this seat has no share of a split');
      return mindreading ? decideSplitMindreader(view, request, task) : decideSplit(view, request, task);
    case 'open':
      return decideOpenChat(view, request);
    case 'game':
      if (task?.kind !== 'game') throw new BotError(BotErrorCode.NoTask, 'this seat has no game card');
      return decideGame(view, request, task);
  }
}
