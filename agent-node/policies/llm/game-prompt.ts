import type { ChatMessage } from '../../../llm/index.js';
import type { GameNotice, TurnEvent, TurnRequest } from '../../../protocol/index.js';
import { gameCardLines } from '../../../simulation/games/card.js';
import type { SeatView } from '../../policy.js';
import { namesFor } from './agent-prompt.js';
import { quotedList } from './render.js';
import { fillTemplate, type Template } from './templates.js';

/** A seat of a hidden-role game: its card is a game card. */
export function isGameSeat(view: SeatView): boolean {
  return view.welcome.self.task?.kind === 'game';
}

/**
 * The game so far as this seat saw it, in the order it happened: each moderator notice before the move
 * its `at` names, each move with its speaker, and whom a private or team message reached.
 */
export function renderGameHistory(view: SeatView): string {
  const notices = view.notices ?? [];
  const events = [...view.events].sort((a, b) => a.turn - b.turn);
  const lines: string[] = [];
  let i = 0;
  const flushNotices = (upTo: number) => {
    for (; i < notices.length && notices[i]!.at <= upTo; i++) lines.push(noticeLine(notices[i]!));
  };
  for (const e of events) {
    flushNotices(e.turn);
    lines.push(eventLine(e, view.welcome.seat));
  }
  flushNotices(Number.POSITIVE_INFINITY);
  return lines.length ? lines.join('\n') : '(Nothing has happened yet.)';
}

function noticeLine(n: GameNotice): string {
  return n.to ? `[Moderator, to you only] ${n.text}` : `[Moderator] ${n.text}`;
}

function eventLine(e: TurnEvent, self: string): string {
  const who = e.seat === self ? 'You' : e.seat;
  const heard = e.to ? (e.to.length === 1 && e.to[0] === self ? ' [only you]' : ` [private to ${e.to.join(', ')}]`) : '';
  if (e.action.type === 'speak') return `${who}${heard}: "${e.action.argument}"`;
  if (e.action.type === 'action') return `${who}${heard} moved: ${e.action.argument}`;
  return `${who}${heard}: (${e.action.type})`;
}

/** What to do now, in words: speak (and who hears it) or the move to write with the players it may name. */
export function gameInstruction(request: TurnRequest): string {
  const g = request.game;
  if (!g) return 'Make your move.';
  if (g.move) return `Your move: write "${g.move.verb} <player>" as an "action", naming one of: ${quotedList(g.move.targets)}.`;
  return g.to ? `Speak: only ${g.to.join(', ')} will hear you (your team's private channel).` : 'Speak: everyone will hear you.';
}

export function gameMessages(template: Template, view: SeatView, request: TurnRequest): ChatMessage[] {
  const { welcome } = view;
  const card = welcome.self.task?.kind === 'game' ? welcome.self.task : null;
  const nameOf = namesFor(view);
  return fillTemplate(template, {
    name: nameOf(welcome.seat),
    seat: welcome.seat,
    scenario: welcome.scenario.text.trim(),
    players: welcome.scenario.seats.map((s) => `- ${s}: ${nameOf(s)}`).join('\n'),
    card: card ? gameCardLines(card).join('\n') : '',
    goal: welcome.self.goal.trim(),
    history: renderGameHistory(view),
    phase: request.game ? `${request.game.title} (round ${request.game.round})` : `move ${request.turn}`,
    instruction: gameInstruction(request),
    actions: quotedList(request.actions),
  });
}
