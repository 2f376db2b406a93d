/** Hidden-role games (issue 39): the definition format, the built-in games, the deal and the rules. Pure. */
import type { GameDefinition } from './definition.js';
import { UNDERCOVER } from './undercover.js';
import { WEREWOLF } from './werewolf.js';

export * from './definition.js';
export * from './deal.js';
export * from './state.js';
export * from './driver.js';
export * from './card.js';

/** The built-in games by id: a scenario names one in its truth (`{ kind: 'game', game: 'werewolf' }`). */
export const GAMES: ReadonlyMap<string, GameDefinition> = new Map([WEREWOLF, UNDERCOVER].map((g) => [g.id, g]));

/** The definition a scenario names, or undefined when no built-in game has that id. */
export function gameDefinition(id: string): GameDefinition | undefined {
  return GAMES.get(id);
}
