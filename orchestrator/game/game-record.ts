import type { GameRecord } from '../../protocol/index.js';
import type { GameState } from '../../simulation/games/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { teamsOf, type WorldGame } from './deal-world.js';

/** The game's record from its final state: roles as dealt, words, who went out, the ballots, the winner. */
export function gameRecord(game: WorldGame, scenario: Scenario, state: GameState, winner: string | null, how: GameRecord['how']): GameRecord {
  const words = scenario.seats.flatMap((seat) => (seat.task?.kind === 'game' && seat.task.word !== undefined ? [[seat.seat, seat.task.word] as const] : []));
  return {
    game: game.def.id,
    roles: { ...game.deal.roles },
    teams: teamsOf(game),
    ...(words.length ? { word: Object.fromEntries(words) } : {}),
    rounds: state.round,
    out: [...state.out],
    votes: [...state.votes],
    inspections: [...state.inspections],
    winner,
    how,
  };
}
