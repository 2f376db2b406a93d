import type { GameDefinitionInput } from './definition.js';

/**
 * What the built-in games share about voting players out, stated once so that werewolf and undercover
 * cannot drift apart on it: the secret ballot that ends a round, the sentence of the rules that explains
 * it, and the two ways the hunted side's fate decides the game.
 */

/** The rules' sentence on the ballot (told to every seat; part of each game's rules text). */
export const VOTE_RULE = 'the player with the most votes is out (a tie puts nobody out) and their role is shown.';

/** The round's secret ballot: everyone still in play votes for another player, then the tally settles it. */
export function secretVote(id: string, title: string): GameDefinitionInput['phases'][number] {
  return {
    id, title, announce: 'Time to vote. Ballots are secret until everyone has voted.',
    actors: 'all', act: 'move', channel: 'private', move: { verb: 'vote', effect: 'vote', targets: 'others' }, resolve: 'vote',
  };
}

/**
 * The rules of a hunt, which both games are: the hunters win when the `hunted` team has nobody left; the
 * hunted win when they are as many as the rest, or when they are still in play as the rounds run out.
 * `messages` are what every seat is told at the end, in that order.
 */
export function huntWins(hunted: string, hunters: string, messages: { eliminated: string; parity: string }): Pick<GameDefinitionInput, 'win' | 'timeoutWinner'> {
  return {
    win: [
      { when: 'eliminated', team: hunted, winner: hunters, message: messages.eliminated },
      { when: 'parity', team: hunted, winner: hunted, message: messages.parity },
    ],
    timeoutWinner: hunted,
  };
}
