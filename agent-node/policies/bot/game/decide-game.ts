import type { Action, GamePrivate, GameStep, TurnEvent, TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { botRng, seedOf, type BotRng } from '../seed.js';
import { readGameView, type GameKnowledge } from './knowledge.js';

/**
 * The game bot: plays any hidden-role game from its card, the notices and the moves it received, by what
 * each move does (`effect`), never by the game's name. Deterministic per episode, seat and turn.
 * - team channel: proposes a victim; the team's kill follows the proposal heard.
 * - inspect: someone not yet looked into; protect: a player who claimed to be the seer, else anyone.
 * - speaking: a word game's clue; a seer who found a werewolf says so; everyone else names a suspect.
 * - vote: a werewolf the seat knows of, else the one a seer named, else the most suspected, else anyone
 *   outside its known team; in a word game, someone whose clue is not one of its own word's.
 */
export function decideGame(view: SeatView, request: TurnRequest, card: GamePrivate): Action {
  const step = request.game;
  if (!step) return { type: 'none', argument: '' };
  const rng = botRng(seedOf(view.welcome.episodeId, view.welcome.seat, request.turn));
  const k = readGameView(view, card);
  if (step.act === 'speak') return { type: 'speak', argument: speech(k, step, card, rng) };
  return { type: 'action', argument: `${step.move!.verb} ${target(k, step, rng)}` };
}

function speech(k: GameKnowledge, step: GameStep, card: GamePrivate, rng: BotRng): string {
  const outsiders = k.alive.filter((s) => s !== k.self && !card.teammates.includes(s));
  if (step.to && card.teammates.length) return `Round ${step.round}, between us: let's take ${k.claimedSeer && outsiders.includes(k.claimedSeer) ? k.claimedSeer : rng.pick(outsiders)} tonight.`;
  if (card.clues?.length) return rng.pick(card.clues);
  const found = k.knownFoes.find((s) => k.alive.includes(s));
  if (found) return `I am the seer, and ${found} is a werewolf.`;
  const suspect = k.seerNamed && k.alive.includes(k.seerNamed) && k.seerNamed !== k.self && !card.teammates.includes(k.seerNamed) ? k.seerNamed : rng.pick(outsiders);
  return `I suspect ${suspect}.`;
}

function target(k: GameKnowledge, step: GameStep, rng: BotRng): string {
  const move = step.move!;
  const allowed = move.targets;
  const pick = (prefer: Array<string | null | undefined>) => prefer.find((s): s is string => !!s && allowed.includes(s)) ?? rng.pick(allowed);
  switch (move.effect) {
    case 'attack':
      return pick([k.teamProposal, k.claimedSeer]);
    case 'inspect': {
      const fresh = allowed.filter((s) => !k.inspected.includes(s));
      return pick([fresh.length ? rng.pick(fresh) : null]);
    }
    case 'protect':
      return pick([k.claimedSeer]);
    case 'vote': {
      const outsiders = allowed.filter((s) => !k.teammates.includes(s));
      const odd = k.oddClues.filter((s) => outsiders.includes(s));
      const preferred = [...k.knownFoes, k.teammates.length ? null : k.seerNamed, k.mostSuspected(outsiders), odd.length ? rng.pick(odd) : null];
      return pick(preferred.concat(outsiders.length ? [rng.pick(outsiders)] : []));
    }
  }
}

/** Moves this seat received, in order. */
export function heard(view: SeatView): TurnEvent[] {
  return [...view.events].sort((a, b) => a.turn - b.turn);
}
